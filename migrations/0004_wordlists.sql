-- Wordlists: named lists of words per project, matched by `wordlist_<key or id>` policies.

CREATE TABLE wordlists (
  id           text PRIMARY KEY,
  project_id   text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  key          text,
  name         text,
  description  text,
  -- Deprecated in the SDK ("now using threshold in project settings"); stored and echoed only.
  strict       boolean NOT NULL DEFAULT false,
  -- Bumped on every change to the list or its words; nodes compare it to reuse their compiled matcher.
  version      bigint NOT NULL DEFAULT 1,
  created_at   bigint NOT NULL,
  updated_at   bigint NOT NULL
);
CREATE INDEX wordlists_project ON wordlists (project_id, id);
CREATE UNIQUE INDEX wordlists_project_key ON wordlists (project_id, key) WHERE key IS NOT NULL;

-- One row per word (lowercase, de-duplicated by the primary key): adding or removing
-- a few words to a 100k-word list touches only those rows.
CREATE TABLE wordlist_words (
  wordlist_id  text NOT NULL REFERENCES wordlists (id) ON DELETE CASCADE,
  word         text NOT NULL,
  PRIMARY KEY (wordlist_id, word)
);
