import type { ReactNode } from 'react';
import { SIGNALS } from './signals.ts';
import type { UnicodeSignal, WordFinding } from './types.ts';
import { VisibleText } from './visible-text.tsx';

export interface MatchSpan {
  start: number;
  end: number;
  kind: 'entity' | 'word';
  label: string;
}

// Signals about single characters are marked inside the word; the others colour the whole word.
const CHARACTER_SIGNALS = new Set<UnicodeSignal>(['invisible', 'illegal', 'mixed_script']);
const wordSignal = (f: WordFinding): UnicodeSignal =>
  f.signals.includes('confusable_word') ? 'confusable_word' : f.signals.includes('zalgo') ? 'zalgo' : (f.signals[0] ?? 'confusable_word');

function SpoofedWord({ text, finding }: { text: string; finding: WordFinding }) {
  const start = finding.offset;
  const end = start + finding.word.length;
  const marks = finding.highlights
    .filter((h) => CHARACTER_SIGNALS.has(h.signal) && h.start >= start && h.end <= end && h.start < h.end)
    .sort((a, b) => a.start - b.start);
  const inner: ReactNode[] = [];
  let at = start;
  for (const h of marks) {
    if (h.start < at) continue;
    if (h.start > at) inner.push(<VisibleText key={`p${at}`} text={text.slice(at, h.start)} />);
    inner.push(
      <mark key={`h${h.start}`} className={`hl-char sig-${h.signal}`} data-signal={h.signal} title={SIGNALS[h.signal].name}>
        <VisibleText text={text.slice(h.start, h.end)} />
      </mark>,
    );
    at = h.end;
  }
  if (at < end) inner.push(<VisibleText key={`p${at}`} text={text.slice(at, end)} />);
  const shown = wordSignal(finding);
  const names = finding.signals.map((s) => SIGNALS[s]?.name ?? s).join(', ');
  return (
    <>
      <mark className={`hl sig-${shown}`} data-word-signals={finding.signals.join(' ')} title={`${names}: reads as “${finding.looksLike}”`}>
        {inner}
      </mark>
      <span className="sig-tag" aria-label={`(${names})`}>
        {finding.signals.map((s) => SIGNALS[s]?.tag ?? s).join('+')}
      </span>
    </>
  );
}

function Plain({ text, from, to, matches }: { text: string; from: number; to: number; matches: MatchSpan[] }) {
  const inside = matches.filter((m) => m.start >= from && m.end <= to).sort((a, b) => a.start - b.start);
  const out: ReactNode[] = [];
  let at = from;
  for (const m of inside) {
    if (m.start < at) continue;
    if (m.start > at) out.push(<VisibleText key={`p${at}`} text={text.slice(at, m.start)} />);
    out.push(
      <mark key={`m${m.start}`} className={m.kind === 'entity' ? 'hl hl-entity' : 'hl hl-word'} title={m.label} data-match={m.kind}>
        <VisibleText text={text.slice(m.start, m.end)} />
      </mark>,
      <span key={`t${m.start}`} className="sig-tag">
        {m.label.replace(/_/g, ' ')}
      </span>,
    );
    at = m.end;
  }
  if (at < to) out.push(<VisibleText key={`p${at}`} text={text.slice(at, to)} />);
  return <>{out}</>;
}

/**
 * The original text with spoofed words (and their odd characters), entities and wordlist words
 * marked. Offsets are UTF-16 indexes as the server reports them; every piece is a React text node.
 */
export function HighlightedText({ text, findings = [], matches = [] }: { text: string; findings?: WordFinding[]; matches?: MatchSpan[] }) {
  const words = findings.filter((f) => f.offset >= 0 && f.offset + f.word.length <= text.length && text.startsWith(f.word, f.offset)).sort((a, b) => a.offset - b.offset);
  const out: ReactNode[] = [];
  let at = 0;
  for (const f of words) {
    if (f.offset < at) continue;
    if (f.offset > at) out.push(<Plain key={`p${at}`} text={text} from={at} to={f.offset} matches={matches} />);
    out.push(<SpoofedWord key={`w${f.offset}`} text={text} finding={f} />);
    at = f.offset + f.word.length;
  }
  if (at < text.length) out.push(<Plain key={`p${at}`} text={text} from={at} to={text.length} matches={matches} />);
  return <>{out}</>;
}
