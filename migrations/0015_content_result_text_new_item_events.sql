-- Two costs of storing an item, from perf of PostgreSQL's backends under /v1/moderate storing:
--
-- 1. json's input function lexed every stored evaluation to check it (9% of the backends' CPU).
--    The service writes that document itself with JSON.stringify, so the check finds nothing; as
--    text it is kept exactly as sent. The queue reads cast it (result::json), checking it there,
--    on the far rarer reads of the items a queue shows.
-- 2. The statement-level trigger of 0010 copied every inserted row, the whole evaluation included,
--    into a transition table only to read back its id (7%). The content INSERT now writes the
--    QUEUE_ITEM_NEW outbox rows itself, in the same statement (a data-modifying WITH), from the
--    ids it returns.
--
-- Upgrading across this migration means stopping every node first: the type change rewrites the
-- table, and nodes of the previous version cast result to json[] on insert and rely on the trigger.
ALTER TABLE content_items ALTER COLUMN result TYPE text;
DROP TRIGGER IF EXISTS content_items_note_new_queue_items ON content_items;
DROP FUNCTION IF EXISTS om_note_new_queue_items();
-- The type change may reset the column's compression method; 0014 explains why it is lz4.
DO $$
BEGIN
  ALTER TABLE content_items ALTER COLUMN result SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END
$$;
