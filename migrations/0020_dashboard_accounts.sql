-- Dashboard accounts: people (not API keys) who sign in to the dashboard, their role in each
-- project, their sessions, failed sign-ins (throttling), short claims on queue items, and the
-- custom-data integration settings. Sessions live in the store so every node shares them.

CREATE TABLE dashboard_users (
  id                    text PRIMARY KEY,
  -- Lower-cased; one account per address.
  email                 text NOT NULL,
  name                  text NOT NULL DEFAULT '',
  -- scrypt$<log2 N>$<r>$<p>$<salt base64>$<hash base64>
  password_hash         text NOT NULL,
  -- Set for generated one-time passwords: the user must choose their own before anything else.
  must_change_password  boolean NOT NULL DEFAULT false,
  created_at            bigint NOT NULL,
  updated_at            bigint NOT NULL
);
CREATE UNIQUE INDEX dashboard_users_email ON dashboard_users (email);

CREATE TABLE dashboard_memberships (
  user_id     text NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
  project_id  text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  role        text NOT NULL CHECK (role IN ('admin', 'developer', 'moderator')),
  -- Moderators only: the queues they may see; NULL means every queue.
  queue_ids   jsonb,
  created_at  bigint NOT NULL,
  updated_at  bigint NOT NULL,
  PRIMARY KEY (user_id, project_id)
);
CREATE INDEX dashboard_memberships_project ON dashboard_memberships (project_id, role);

CREATE TABLE dashboard_sessions (
  id            text PRIMARY KEY,
  user_id       text NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
  -- SHA-256 of the cookie's random token; the token itself is never stored.
  token_hash    text NOT NULL,
  created_at    bigint NOT NULL,
  last_seen_at  bigint NOT NULL,
  -- Absolute end, whatever the activity.
  expires_at    bigint NOT NULL,
  revoked_at    bigint,
  user_agent    text,
  ip            text
);
CREATE UNIQUE INDEX dashboard_sessions_token ON dashboard_sessions (token_hash);
CREATE INDEX dashboard_sessions_user ON dashboard_sessions (user_id);

-- One row per failed sign-in, by the lower-cased email tried (known or not).
CREATE TABLE dashboard_login_failures (
  email      text NOT NULL,
  failed_at  bigint NOT NULL
);
CREATE INDEX dashboard_login_failures_email ON dashboard_login_failures (email, failed_at);

-- "Being reviewed by": a short, renewable claim of one item by one user.
CREATE TABLE dashboard_item_claims (
  project_id  text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  content_id  text NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
  user_id     text NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
  claimed_at  bigint NOT NULL,
  expires_at  bigint NOT NULL,
  PRIMARY KEY (project_id, content_id)
);

CREATE TABLE custom_data_settings (
  project_id    text PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  enabled       boolean NOT NULL DEFAULT false,
  endpoint_url  text,
  -- [{name, value}]; values are secrets, never answered back.
  headers       jsonb NOT NULL DEFAULT '[]',
  updated_at    bigint NOT NULL,
  updated_by    text
);

-- The dashboard user behind an audit entry (API-key entries keep actor_key_id).
ALTER TABLE audit_log ADD COLUMN actor_user_id text;
ALTER TABLE audit_log ADD COLUMN actor_email text;
CREATE INDEX audit_log_actor_user ON audit_log (project_id, actor_user_id, id DESC) WHERE actor_user_id IS NOT NULL;
