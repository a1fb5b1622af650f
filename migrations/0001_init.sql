-- Foundation: projects own keys, channels, authors and content.
-- Times are bigint milliseconds since the epoch, as the API speaks them.

CREATE TABLE projects (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  created_at  bigint NOT NULL
);

CREATE TABLE api_keys (
  id            text PRIMARY KEY,
  project_id    text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name          text NOT NULL,
  -- Only the first characters are kept in clear, to recognise a key in lists.
  prefix        text NOT NULL,
  key_hash      text NOT NULL UNIQUE,
  created_at    bigint NOT NULL,
  revoked_at    bigint
);
CREATE INDEX api_keys_project ON api_keys (project_id, created_at);

CREATE TABLE channels (
  id          text PRIMARY KEY,
  project_id  text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  key         text NOT NULL,
  name        text NOT NULL,
  is_default  boolean NOT NULL DEFAULT false,
  config      jsonb NOT NULL,
  created_at  bigint NOT NULL,
  updated_at  bigint NOT NULL,
  UNIQUE (project_id, key)
);
CREATE UNIQUE INDEX channels_one_default ON channels (project_id) WHERE is_default;

CREATE TABLE authors (
  id           text PRIMARY KEY,
  project_id   text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  external_id  text NOT NULL,
  status       text NOT NULL DEFAULT 'enabled',
  first_seen   bigint NOT NULL,
  last_seen    bigint NOT NULL,
  created_at   bigint NOT NULL,
  updated_at   bigint NOT NULL,
  UNIQUE (project_id, external_id)
);

CREATE TABLE content_items (
  id               text PRIMARY KEY,
  project_id       text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  -- The caller's contentId, or our generated id when none was sent.
  external_id      text NOT NULL,
  channel_id       text NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  author_id        text REFERENCES authors (id) ON DELETE CASCADE,
  conversation_id  text,
  meta_type        text,
  content_type     text NOT NULL,
  -- The content exactly as submitted: original characters, before normalization.
  content          jsonb NOT NULL,
  modified         jsonb,
  metadata         jsonb,
  flagged          boolean NOT NULL,
  flag_probability double precision NOT NULL,
  severity_score   double precision NOT NULL,
  recommendation   text NOT NULL,
  -- The full evaluation (policies, insights, reason codes, Unicode findings) for review.
  result           jsonb NOT NULL,
  submitted_at     bigint NOT NULL,
  created_at       bigint NOT NULL,
  updated_at       bigint NOT NULL,
  UNIQUE (project_id, external_id)
);
CREATE INDEX content_items_project_created ON content_items (project_id, created_at DESC, id DESC);
CREATE INDEX content_items_author ON content_items (author_id, created_at DESC) WHERE author_id IS NOT NULL;

-- Side effects (webhooks, expiries) are written here in the transaction of the
-- change that causes them, and delivered by a background worker.
CREATE TABLE outbox (
  id            bigserial PRIMARY KEY,
  project_id    text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  topic         text NOT NULL,
  payload       jsonb NOT NULL,
  available_at  bigint NOT NULL,
  attempts      integer NOT NULL DEFAULT 0,
  last_error    text,
  created_at    bigint NOT NULL,
  done_at       bigint
);
CREATE INDEX outbox_pending ON outbox (available_at, id) WHERE done_at IS NULL;
