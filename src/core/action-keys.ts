/**
 * Keys of the built-in actions. The hosted Moderation API names its built-in
 * actions by their type (`AUTHOR_BLOCK`, `AUTHOR_BLOCK_TEMP`, ...), and its
 * documentation executes them by those keys; the first releases of this
 * service used lowercase keys (`block`, `temporary_block`, ...), which stay
 * accepted as aliases so existing integrations keep working.
 */

export const BUILT_IN_ACTION_KEYS = [
  'AUTHOR_BLOCK',
  'AUTHOR_BLOCK_TEMP',
  'AUTHOR_UNBLOCK',
  'AUTHOR_DELETE',
  'AUTHOR_REPORT',
  'AUTHOR_WARN',
  'ITEM_REJECT',
  'ITEM_ALLOW',
] as const;
export type BuiltInActionKey = (typeof BUILT_IN_ACTION_KEYS)[number];

/** Earlier keys of the built-in actions, by the key they now have. */
export const LEGACY_BUILT_IN_KEYS: Readonly<Record<BuiltInActionKey, string>> = {
  AUTHOR_BLOCK: 'block',
  AUTHOR_BLOCK_TEMP: 'temporary_block',
  AUTHOR_UNBLOCK: 'unblock',
  AUTHOR_DELETE: 'delete_author',
  AUTHOR_REPORT: 'report',
  AUTHOR_WARN: 'warn',
  ITEM_REJECT: 'reject',
  ITEM_ALLOW: 'allow',
};

const byAnySpelling = new Map<string, BuiltInActionKey>();
for (const key of BUILT_IN_ACTION_KEYS) {
  byAnySpelling.set(key, key);
  byAnySpelling.set(LEGACY_BUILT_IN_KEYS[key], key);
}

/** The built-in action a key names (its own key or its legacy alias), else null. */
export function builtInActionKey(key: string): BuiltInActionKey | null {
  return byAnySpelling.get(key) ?? null;
}

/**
 * Every spelling under which an action given by id or key may have been
 * recorded: a built-in key brings its alias and the other way round, so
 * filters over the audit log find entries written before the rename.
 */
export function actionKeySpellings(idsOrKeys: readonly string[]): string[] {
  const out = new Set<string>();
  for (const value of idsOrKeys) {
    out.add(value);
    const key = byAnySpelling.get(value);
    if (key !== undefined) {
      out.add(key);
      out.add(LEGACY_BUILT_IN_KEYS[key]);
    }
  }
  return [...out];
}
