-- Review queues, moderator actions with their audit log, and webhooks.

-- A queue is a saved filter over content_items; items are not copied into it.
CREATE TABLE queues (
  id           text PRIMARY KEY,
  project_id   text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name         text NOT NULL,
  description  text NOT NULL DEFAULT '',
  filter       jsonb NOT NULL,
  created_at   bigint NOT NULL,
  updated_at   bigint NOT NULL
);
CREATE INDEX queues_project ON queues (project_id, created_at, id);

-- Resolution is per queue: a row means the item is resolved in that queue.
CREATE TABLE queue_resolutions (
  queue_id     text NOT NULL REFERENCES queues (id) ON DELETE CASCADE,
  content_id   text NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
  project_id   text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  resolved_at  bigint NOT NULL,
  -- The API key that resolved it.
  resolved_by  text,
  comment      text,
  PRIMARY KEY (queue_id, content_id)
);
CREATE INDEX queue_resolutions_content ON queue_resolutions (content_id);
CREATE INDEX queue_resolutions_queue_time ON queue_resolutions (queue_id, resolved_at);

CREATE TABLE actions (
  id                  text PRIMARY KEY,
  project_id          text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  key                 text,
  name                text NOT NULL,
  description         text,
  type                text,
  built_in            boolean NOT NULL DEFAULT false,
  queue_behaviour     text NOT NULL DEFAULT 'NO_CHANGE',
  filter_in_queue_ids jsonb NOT NULL DEFAULT '[]',
  position            text NOT NULL DEFAULT 'ALL_QUEUES',
  possible_values     jsonb NOT NULL DEFAULT '[]',
  value_required      boolean NOT NULL DEFAULT false,
  free_text           boolean NOT NULL DEFAULT false,
  created_at          bigint NOT NULL,
  updated_at          bigint NOT NULL,
  UNIQUE (project_id, key)
);
CREATE INDEX actions_project ON actions (project_id, created_at, id);

-- Append-only record of every moderator operation. Action names and keys are
-- copied in so entries stay readable after an action is renamed or deleted;
-- content and author ids are kept after erasure for accountability (they are
-- the caller's pseudonymous identifiers, not the content).
CREATE TABLE audit_log (
  id                   text PRIMARY KEY,
  project_id           text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  kind                 text NOT NULL,
  actor_key_id         text,
  action_id            text,
  action_key           text,
  action_name          text,
  action_type          text,
  queue_id             text,
  content_id           text,
  content_external_id  text,
  author_id            text,
  author_external_id   text,
  value                text,
  comment              text,
  -- When the item entered the store, to measure time to review.
  item_created_at      bigint,
  created_at           bigint NOT NULL
);
CREATE INDEX audit_log_project ON audit_log (project_id, id DESC);
CREATE INDEX audit_log_content ON audit_log (project_id, content_id, id DESC) WHERE content_id IS NOT NULL;
CREATE INDEX audit_log_content_external ON audit_log (project_id, content_external_id, id DESC) WHERE content_external_id IS NOT NULL;
CREATE INDEX audit_log_author ON audit_log (project_id, author_id, id DESC) WHERE author_id IS NOT NULL;
CREATE INDEX audit_log_queue ON audit_log (queue_id, created_at) WHERE queue_id IS NOT NULL;

-- Project webhooks (action_id NULL, subscribed to `events`) and action
-- webhooks (called on every execution of that action).
CREATE TABLE webhooks (
  id           text PRIMARY KEY,
  project_id   text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  action_id    text REFERENCES actions (id) ON DELETE CASCADE,
  name         text NOT NULL,
  url          text NOT NULL,
  description  text,
  events       jsonb NOT NULL DEFAULT '[]',
  enabled      boolean NOT NULL DEFAULT true,
  created_at   bigint NOT NULL,
  updated_at   bigint NOT NULL
);
CREATE INDEX webhooks_project ON webhooks (project_id, created_at, id);
CREATE INDEX webhooks_action ON webhooks (action_id) WHERE action_id IS NOT NULL;

-- The HMAC signing secret per project. It must be readable to sign, so it is
-- stored as is: it authenticates our requests to the customer, it grants no
-- access to this service.
CREATE TABLE webhook_secrets (
  project_id           text PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  secret               text NOT NULL,
  previous_secret      text,
  previous_valid_until bigint,
  created_at           bigint NOT NULL,
  rotated_at           bigint
);

-- One row per event; `body` is the exact JSON sent on every attempt, with the
-- stable event id inside.
CREATE TABLE webhook_events (
  id          text PRIMARY KEY,
  project_id  text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  type        text NOT NULL,
  body        text NOT NULL,
  created_at  bigint NOT NULL
);
CREATE INDEX webhook_events_project ON webhook_events (project_id, created_at);

-- The delivery log: one row per attempt.
CREATE TABLE webhook_deliveries (
  id           text PRIMARY KEY,
  project_id   text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  webhook_id   text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event_id     text NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
  event_type   text NOT NULL,
  attempt      integer NOT NULL,
  manual       boolean NOT NULL DEFAULT false,
  status_code  integer,
  success      boolean NOT NULL,
  error        text,
  duration_ms  integer NOT NULL,
  created_at   bigint NOT NULL
);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, id DESC);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

-- "New queue item" webhooks: a stored item is noted in the outbox in the very
-- transaction that inserts it, whichever code path inserts it, but only when a
-- project webhook listens. The outbox handler then matches the project's
-- queues and fans the event out.
CREATE FUNCTION om_note_new_queue_item() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM webhooks w WHERE w.project_id = NEW.project_id AND w.enabled AND w.action_id IS NULL
             AND w.events @> '["QUEUE_ITEM_NEW"]'::jsonb) THEN
    INSERT INTO outbox (project_id, topic, payload, available_at, created_at)
    VALUES (NEW.project_id, 'webhook.queue_item_new', jsonb_build_object('contentId', NEW.id), NEW.created_at, NEW.created_at);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER content_items_note_new_queue_item AFTER INSERT ON content_items
  FOR EACH ROW EXECUTE FUNCTION om_note_new_queue_item();
