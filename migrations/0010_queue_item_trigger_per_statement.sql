-- New-queue-item webhook events: one check per INSERT statement instead of one per row.
-- The batch writer inserts a whole group commit's content in one statement; the
-- transition table holds only rows that were inserted (not those updated by ON CONFLICT),
-- so re-submissions do not announce a new item.
DROP TRIGGER IF EXISTS content_items_note_new_queue_item ON content_items;
DROP FUNCTION IF EXISTS om_note_new_queue_item();

CREATE FUNCTION om_note_new_queue_items() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO outbox (project_id, topic, payload, available_at, created_at)
  SELECT n.project_id, 'webhook.queue_item_new', jsonb_build_object('contentId', n.id), n.created_at, n.created_at
  FROM new_items n
  WHERE EXISTS (SELECT 1 FROM webhooks w WHERE w.project_id = n.project_id AND w.enabled AND w.action_id IS NULL
                AND w.events @> '["QUEUE_ITEM_NEW"]'::jsonb);
  RETURN NULL;
END
$$;

CREATE TRIGGER content_items_note_new_queue_items AFTER INSERT ON content_items
  REFERENCING NEW TABLE AS new_items
  FOR EACH STATEMENT EXECUTE FUNCTION om_note_new_queue_items();
