-- Built-in actions take the keys the hosted Moderation API documents (AUTHOR_BLOCK, ...), which
-- equal their type. The earlier lowercase keys stay accepted as aliases by the service
-- (src/core/action-keys.ts), so integrations that used them keep working. A project whose own
-- custom action already holds one of the new keys keeps that built-in under its old key; the
-- alias lookup finds it by type. The audit log is append-only and keeps the keys it recorded;
-- filters over it match both spellings.
UPDATE actions a
SET key = a.type
WHERE a.built_in
  AND a.type IN ('AUTHOR_BLOCK', 'AUTHOR_BLOCK_TEMP', 'AUTHOR_UNBLOCK', 'AUTHOR_DELETE', 'AUTHOR_REPORT', 'AUTHOR_WARN', 'ITEM_REJECT', 'ITEM_ALLOW')
  AND a.key IS DISTINCT FROM a.type
  AND NOT EXISTS (SELECT 1 FROM actions other WHERE other.project_id = a.project_id AND other.key = a.type);
