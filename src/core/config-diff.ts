/**
 * What changed between two JSON documents (a channel, a queue, an action before and after an
 * edit), as the audit log keeps it: one entry per changed leaf, addressed by a JSON pointer.
 * Arrays of objects are compared by position, so a policy switched off reads as
 * `/policies/3/flag: true → false`. Pure: no I/O.
 */

export interface ConfigChange {
  path: string;
  /** Absent when the value was added. */
  before?: unknown;
  /** Absent when the value was removed. */
  after?: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every leaf that differs; at most `limit` entries (a list of 100k words is summarised, not copied). */
export function diffConfig(before: unknown, after: unknown, limit = 200): ConfigChange[] {
  const changes: ConfigChange[] = [];
  const walk = (a: unknown, b: unknown, path: string): void => {
    if (changes.length >= limit) return;
    if (isObject(a) && isObject(b)) {
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
      for (const key of keys) walk(a[key], b[key], `${path}/${escape(key)}`);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b) && (a.some(isObject) || b.some(isObject))) {
      for (let i = 0; i < Math.max(a.length, b.length); i++) walk(a[i], b[i], `${path}/${i}`);
      return;
    }
    if (JSON.stringify(a) === JSON.stringify(b)) return;
    const change: ConfigChange = { path: path || '/' };
    if (a !== undefined) change.before = a;
    if (b !== undefined) change.after = b;
    changes.push(change);
  };
  walk(before, after, '');
  return changes;
}
