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

// Character-level signals win over word-level ones where they overlap: they say which letter is odd.
const PRIORITY: UnicodeSignal[] = ['invisible', 'illegal', 'mixed_script', 'confusable_word', 'zalgo'];

/**
 * The original text with spoofed words, entities and wordlist words marked. Boundaries are UTF-16
 * offsets as the server reports them; every piece is a React text node.
 */
export function HighlightedText({ text, findings = [], matches = [] }: { text: string; findings?: WordFinding[]; matches?: MatchSpan[] }) {
  const valid = (s: number, e: number) => s >= 0 && e <= text.length && s < e;
  const words = findings.filter((f) => valid(f.offset, f.offset + f.word.length));
  const signalSpans = words.flatMap((f) => f.highlights.filter((h) => valid(h.start, h.end)));
  const marks = matches.filter((m) => valid(m.start, m.end));
  const cuts = new Set<number>([0, text.length]);
  for (const f of words) cuts.add(f.offset).add(f.offset + f.word.length);
  for (const h of signalSpans) cuts.add(h.start).add(h.end);
  for (const m of marks) cuts.add(m.start).add(m.end);
  const points = [...cuts].sort((a, b) => a - b);

  const out: ReactNode[] = [];
  for (let i = 0; i < points.length - 1; i++) {
    const a = points[i]!;
    const b = points[i + 1]!;
    const piece = text.slice(a, b);
    const signal = PRIORITY.find((s) => signalSpans.some((h) => h.signal === s && h.start <= a && h.end >= b));
    const word = words.find((f) => f.offset <= a && f.offset + f.word.length >= b);
    const match = marks.find((m) => m.start <= a && m.end >= b);
    if (signal || word) {
      const shown = signal ?? word!.signals[0] ?? 'confusable_word';
      out.push(
        <mark key={a} className={`hl sig-${shown}`} data-signal={shown} title={word ? `${SIGNALS[shown].name}: reads as “${word.looksLike}”` : SIGNALS[shown].name}>
          <VisibleText text={piece} />
        </mark>,
      );
    } else if (match) {
      out.push(
        <mark key={a} className={match.kind === 'entity' ? 'hl hl-entity' : 'hl hl-word'} title={match.label}>
          <VisibleText text={piece} />
        </mark>,
      );
    } else out.push(<VisibleText key={a} text={piece} />);
    // After a spoofed word: its signals in words, so colour is never the only sign.
    for (const f of words) {
      if (f.offset + f.word.length === b) {
        out.push(
          <span key={`t${a}`} className="sig-tag" aria-label={`(${f.signals.map((s) => SIGNALS[s]?.name ?? s).join(', ')})`}>
            {f.signals.map((s) => SIGNALS[s]?.tag ?? s).join('+')}
          </span>,
        );
      }
    }
    // Entity and wordlist matches also end with their label.
    for (const m of marks) {
      if (m.end === b && !words.some((f) => f.offset < m.end && f.offset + f.word.length > m.start)) {
        out.push(
          <span key={`m${a}${m.label}`} className="sig-tag">
            {m.label}
          </span>,
        );
      }
    }
  }
  return <>{out}</>;
}
