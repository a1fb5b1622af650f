-- Image hash lists: known-bad pictures per project, matched by perceptual hash (src/media/image-hash.ts).

CREATE TABLE image_hash_lists (
  id           text PRIMARY KEY,
  project_id   text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  key          text,
  name         text NOT NULL,
  description  text,
  -- Largest Hamming distance (of 128 bits) at which an image counts as a listed one.
  threshold    integer NOT NULL,
  -- Bumped on every change to the list or its entries; nodes compare it to reuse their loaded entries.
  version      bigint NOT NULL DEFAULT 1,
  created_at   bigint NOT NULL,
  updated_at   bigint NOT NULL
);
CREATE INDEX image_hash_lists_project ON image_hash_lists (project_id, id);
CREATE UNIQUE INDEX image_hash_lists_project_key ON image_hash_lists (project_id, key) WHERE key IS NOT NULL;

-- One row per hash (lowercase hex, 32 digits, or 16 for a 64-bit hash from another tool).
CREATE TABLE image_hash_list_entries (
  list_id     text NOT NULL REFERENCES image_hash_lists (id) ON DELETE CASCADE,
  hash        text NOT NULL,
  -- What the operator knows about the picture ("scam screenshot, March"); never the picture itself.
  label       text,
  created_at  bigint NOT NULL,
  PRIMARY KEY (list_id, hash)
);
