import { Badge } from '../kit/kit.tsx';
import { HighlightedText, type MatchSpan } from './highlighted-text.tsx';
import { SIGNALS } from './signals.ts';
import type { ItemDetail, PolicyResult, WordFinding } from './types.ts';
import { VisibleText } from './visible-text.tsx';

/** Entity and wordlist matches located in the text: by the reported span, else by searching for the match. */
export function matchSpans(text: string, policies: PolicyResult[]): MatchSpan[] {
  const spans: MatchSpan[] = [];
  for (const policy of policies) {
    for (const m of policy.matches ?? []) {
      if (typeof m.match !== 'string' || m.match === '') continue;
      const kind = policy.id.includes('wordlist') || (policy.data !== undefined && 'words' in policy.data) ? 'word' : 'entity';
      const [start, end] = Array.isArray(m.span) ? m.span : [-1, -1];
      if (text.slice(start, end) === m.match) spans.push({ start, end, kind, label: policy.id });
      else {
        const at = text.indexOf(m.match);
        if (at >= 0) spans.push({ start: at, end: at + m.match.length, kind, label: policy.id });
      }
    }
  }
  return spans;
}

function findingsFor(detail: ItemDetail, field: string | null): WordFinding[] {
  return detail.unicode?.find((u) => u.field === field)?.findings ?? [];
}

function isHttps(url: unknown): url is string {
  try {
    return typeof url === 'string' && new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}

function ImageThumb({ url, label }: { url: string; label: string }) {
  if (!isHttps(url)) return <span className="break mono">{url}</span>;
  return (
    <a href={url} target="_blank" rel="noopener noreferrer">
      <img src={url} alt={label} referrerPolicy="no-referrer" style={{ maxWidth: 240, maxHeight: 180, borderRadius: 6, border: '1px solid var(--border)' }} />
    </a>
  );
}

function TextBlock({ text, findings, matches, label }: { text: string; findings: WordFinding[]; matches: MatchSpan[]; label: string }) {
  return (
    <div className="content-text" aria-label={label} data-testid="content-text">
      <HighlightedText text={text} findings={findings} matches={matches} />
    </div>
  );
}

export function ItemContent({ detail }: { detail: ItemDetail }) {
  const content = detail.item.content;
  if (content.type === 'text' && typeof content.text === 'string') {
    return <TextBlock text={content.text} findings={findingsFor(detail, null)} matches={matchSpans(content.text, detail.policies)} label="Content" />;
  }
  if (content.type === 'image' && typeof content.url === 'string') return <ImageThumb url={content.url} label="Submitted image" />;
  if (content.type === 'object' && content.data && typeof content.data === 'object') {
    const fields = Object.entries(content.data as Record<string, { type: string; text?: string; url?: string }>);
    const flaggedFields = new Set(detail.policies.filter((p) => p.flagged).flatMap((p) => p.flagged_fields ?? []));
    return (
      <div className="stack">
        {fields.map(([key, value]) => (
          <div key={key} className="stack-sm">
            <div className="row">
              <span className="field-name">{key}</span>
              {flaggedFields.has(key) && <Badge tone="danger">flagged field</Badge>}
            </div>
            {value?.type === 'image' && typeof value.url === 'string' ? (
              <ImageThumb url={value.url} label={`Image field ${key}`} />
            ) : (
              <TextBlock
                text={String(value?.text ?? '')}
                findings={findingsFor(detail, key)}
                matches={matchSpans(String(value?.text ?? ''), detail.policies.filter((p) => !p.flagged_fields || p.flagged_fields.includes(key)))}
                label={`Field ${key}`}
              />
            )}
          </div>
        ))}
      </div>
    );
  }
  return <pre className="content-text">{JSON.stringify(content, null, 2)}</pre>;
}

/** Every spoofed word: the original (hidden characters shown) beside the normalized form. */
export function UnicodeFindings({ detail }: { detail: ItemDetail }) {
  return <UnicodeFindingList unicode={detail.unicode} modified={detail.item.modified} />;
}

/** The findings of a stored item or of a playground run (which stores nothing). */
export function UnicodeFindingList({ unicode, modified }: { unicode: ItemDetail['unicode']; modified: ItemDetail['item']['modified'] }) {
  const groups = (unicode ?? []).filter((g) => g.findings.length > 0);
  if (groups.length === 0) return null;
  const normalized = typeof modified === 'string' ? modified : modified && modified.type === 'text' ? String((modified as { text: string }).text) : null;
  return (
    <div className="stack" data-testid="unicode-findings">
      <div className="legend" aria-label="Signal colours">
        {Object.entries(SIGNALS).map(([id, s]) => (
          <span key={id} className="row" style={{ gap: 4 }}>
            <mark className={`hl sig-${id}`}>{s.tag}</mark> {s.name}
          </span>
        ))}
      </div>
      {groups.map((group) => (
        <div key={group.field ?? ''} className="stack-sm">
          {group.field && <span className="field-name">{group.field}</span>}
          {group.findings.map((f, i) => (
            <div className="finding" key={`${f.offset}-${i}`} data-testid="finding">
              <div className="stack-sm">
                <span className="small muted">Original</span>
                <span className="mono break" data-testid="finding-original">
                  <HighlightedText text={f.word} findings={[{ ...f, offset: 0, highlights: f.highlights.map((h) => ({ ...h, start: h.start - f.offset, end: h.end - f.offset })) }]} />
                </span>
              </div>
              <span className="arrow" aria-hidden="true">
                →
              </span>
              <div className="stack-sm">
                <span className="small muted">Normalized (reads as)</span>
                <span className="mono break" data-testid="finding-normalized">
                  <VisibleText text={f.looksLike} />
                </span>
              </div>
              <div className="row" style={{ gridColumn: '1 / -1' }}>
                {f.signals.map((s) => (
                  <Badge key={s} tone="violet">
                    {SIGNALS[s]?.name ?? s}
                  </Badge>
                ))}
                {f.scripts.length > 0 && <span className="small muted">Scripts: {f.scripts.join(', ')}</span>}
                <span className="small muted mono break">{f.codePoints.join(' ')}</span>
              </div>
            </div>
          ))}
        </div>
      ))}
      {normalized !== null && (
        <div className="stack-sm">
          <span className="small muted">Whole text as normalized</span>
          <div className="content-text">
            <VisibleText text={normalized} />
          </div>
        </div>
      )}
    </div>
  );
}
