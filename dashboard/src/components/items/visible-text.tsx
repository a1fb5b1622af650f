import type { ReactNode } from 'react';

// Characters a reader cannot see (format and control characters, Hangul fillers, variation
// selectors) are shown as a marked chip with their code point; line breaks and tabs stay as they are.
const HIDDEN = /[\p{Cf}\p{Cc}\u115F\u1160\u3164\uFFA0\u034F\uFE00-\uFE0F\u180B-\u180F]/u;
const HIDDEN_ALL = /[\p{Cf}\p{Cc}\u115F\u1160\u3164\uFFA0\u034F\uFE00-\uFE0F\u180B-\u180F]/gu;

export const codePoint = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Renders text as React text nodes, with hidden characters made visible. Never HTML. */
export function VisibleText({ text }: { text: string }): ReactNode {
  if (!HIDDEN.test(text)) return text;
  const parts: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(HIDDEN_ALL)) {
    const ch = m[0];
    if (ch === '\n' || ch === '\t' || ch === '\r') continue;
    if (m.index > last) parts.push(text.slice(last, m.index));
    parts.push(
      <span key={m.index} className="cp-chip" title={`Hidden character ${codePoint(ch)}`}>
        {codePoint(ch)}
      </span>,
    );
    last = m.index + ch.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}
