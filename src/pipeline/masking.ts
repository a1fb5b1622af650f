import type { EntityMatch } from '../core/policy.ts';

/**
 * Replaces matched spans with their masks, left to right. When matches of
 * several policies overlap, the earliest (then longest) wins and the others
 * are dropped, so a masked value is never partially exposed.
 */
export function applyReplacements(text: string, matches: readonly EntityMatch[]): { text: string; applied: boolean } {
  if (matches.length === 0) return { text, applied: false };
  const ordered = [...matches].sort((a, b) => a.span[0] - b.span[0] || b.span[1] - a.span[1]);
  let out = '';
  let cursor = 0;
  for (const m of ordered) {
    const [start, end] = m.span;
    if (start < cursor || m.replacement === undefined) continue;
    out += text.slice(cursor, start) + m.replacement;
    cursor = end;
  }
  return { text: out + text.slice(cursor), applied: true };
}
