/**
 * PostgreSQL text cannot hold U+0000, and JSON columns reject it and unpaired
 * surrogates; a string carrying either would fail when stored, after the
 * request was accepted. Request bodies are checked once, when parsed.
 */

import type { ErrorIssue } from '../errors.ts';

/**
 * A JSON text can carry these only as escapes (`\u0000`, `\ud800`): raw control characters are
 * not JSON, and UTF-8 cannot encode a lone surrogate. Bodies without such an escape, nearly all,
 * skip the walk. Paired surrogates escaped by some clients also match; the walk lets them pass.
 */
const MAY_HOLD_UNSTORABLE = /\\u(?:0000|[dD][89a-fA-F])/;

export const mayHoldUnstorable = (json: string): boolean => MAY_HOLD_UNSTORABLE.test(json);

export const isStorable = (text: string): boolean => !text.includes('\u0000') && text.isWellFormed();

/** U+0000 and unpaired surrogates become U+FFFD: same length, so spans into the text stay true. */
export const toStorable = (text: string): string => text.toWellFormed().replaceAll('\u0000', '\uFFFD');

/** A copy of a JSON-shaped value with every string and key made storable (values without any are returned as they are). */
export function storableCopy<T>(value: T): T {
  if (typeof value === 'string') return (isStorable(value) ? value : toStorable(value)) as T;
  if (Array.isArray(value)) return value.map(storableCopy) as T;
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) copy[isStorable(key) ? key : toStorable(key)] = storableCopy(inner);
    return copy as T;
  }
  return value;
}

const MAX_ISSUES = 20;

/**
 * Walks a parsed body. Strings at a path `exempt` accepts are left as they are (the text
 * submitted for moderation: the analysis must see U+0000 and lone surrogates, and the
 * pipeline stores a repaired copy); any other string or key that cannot be stored becomes
 * an issue (a JSON pointer to it).
 */
export function checkStorableStrings(value: unknown, exempt: (path: readonly string[]) => boolean): ErrorIssue[] {
  const issues: ErrorIssue[] = [];
  const path: string[] = [];
  const visit = (node: unknown): unknown => {
    if (issues.length >= MAX_ISSUES) return node;
    if (typeof node === 'string') {
      if (isStorable(node) || exempt(path)) return node;
      issues.push({ message: 'contains U+0000 or an unpaired surrogate, which cannot be stored', path: pointer(path) });
      return node;
    }
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        path.push(String(i));
        node[i] = visit(node[i]);
        path.pop();
      }
      return node;
    }
    if (typeof node === 'object' && node !== null) {
      const record = node as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        path.push(key);
        if (!isStorable(key)) issues.push({ message: 'this key contains U+0000 or an unpaired surrogate, which cannot be stored', path: pointer(path) });
        else record[key] = visit(record[key]);
        path.pop();
      }
    }
    return node;
  };
  visit(value);
  return issues;
}

/** RFC 6901; the path's own unstorable characters are shown as U+FFFD so the answer itself is valid JSON text. */
const pointer = (path: readonly string[]): string => (path.length === 0 ? '/' : path.map((p) => `/${toStorable(p).replaceAll('~', '~0').replaceAll('/', '~1')}`).join(''));
