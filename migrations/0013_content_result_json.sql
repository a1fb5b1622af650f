-- The stored evaluation is written once per moderated item and read only by review queues.
-- As jsonb, parsing it into its binary form was the largest single cost of storing an item in
-- PostgreSQL (about a third of the backend's CPU per row); as json it is checked and kept as
-- written. Queue filters read its policies with the json functions. Whether an item is
-- shadow-flagged, which a queue may ask of every unflagged item, becomes a column of its own.
-- Upgrading across this migration means stopping every node first: the type change rewrites the
-- table under an exclusive lock, and nodes of the previous version read result as jsonb and do not
-- write shadow_flagged.
ALTER TABLE content_items ADD COLUMN shadow_flagged boolean NOT NULL DEFAULT false;
UPDATE content_items SET shadow_flagged = true WHERE result ? 'shadow_flagged';
ALTER TABLE content_items ALTER COLUMN result TYPE json USING result::json;
