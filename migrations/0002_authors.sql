-- Authors: profile, moderator state, and the facts submissions keep current
-- (metrics, recent history, behaviour counters) for trust and risk.
-- Derived sort values (trust level, flagged ratio, average sentiment) are
-- stored as columns so every sortBy key of GET /v1/authors is an index scan.

ALTER TABLE authors
  ADD COLUMN name                text,
  ADD COLUMN email               text,
  ADD COLUMN profile_picture     text,
  ADD COLUMN external_link       text,
  ADD COLUMN metadata            jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- Null: trust level is computed; -1..4: set by a moderator.
  ADD COLUMN manual_trust_level  smallint CHECK (manual_trust_level BETWEEN -1 AND 4),
  -- The effective trust level (manual or automatic), kept current for sorting.
  ADD COLUMN trust_level         smallint NOT NULL DEFAULT 0,
  ADD COLUMN block_until         bigint,
  ADD COLUMN block_reason        text,
  ADD COLUMN last_incident       bigint,
  ADD COLUMN total_content       integer NOT NULL DEFAULT 0,
  ADD COLUMN flagged_content     integer NOT NULL DEFAULT 0,
  -- flagged_content / total_content (0 without content), kept current for sorting.
  ADD COLUMN flagged_ratio       double precision NOT NULL DEFAULT 0,
  ADD COLUMN sentiment_sum       double precision NOT NULL DEFAULT 0,
  ADD COLUMN sentiment_count     integer NOT NULL DEFAULT 0,
  -- sentiment_sum / sentiment_count, null until a sentiment insight ran.
  ADD COLUMN average_sentiment   double precision,
  -- Flagged submissions plus moderator incidents (blocks, suspensions).
  ADD COLUMN violation_count     integer NOT NULL DEFAULT 0,
  ADD COLUMN report_count        integer NOT NULL DEFAULT 0,
  -- Bit set of content types seen: text 1, image 2, video 4, audio 8, object 16.
  ADD COLUMN content_type_mask   smallint NOT NULL DEFAULT 0,
  -- The last 100 submissions, newest in the lowest bit: 1 = flagged.
  ADD COLUMN recent_flags        bit(100) NOT NULL DEFAULT 0::bit(100),
  ADD COLUMN recent_count        smallint NOT NULL DEFAULT 0,
  -- Behaviour counters for the risk evaluation.
  ADD COLUMN hour_bucket         bigint NOT NULL DEFAULT 0,
  ADD COLUMN hour_count          integer NOT NULL DEFAULT 0,
  ADD COLUMN minute_bucket       bigint NOT NULL DEFAULT 0,
  ADD COLUMN minute_count        integer NOT NULL DEFAULT 0,
  ADD COLUMN peak_minute_count   integer NOT NULL DEFAULT 0,
  ADD COLUMN night_content       integer NOT NULL DEFAULT 0,
  ADD COLUMN hour_night_count    integer NOT NULL DEFAULT 0,
  ADD COLUMN spoofed_content     integer NOT NULL DEFAULT 0,
  ADD COLUMN link_count          integer NOT NULL DEFAULT 0,
  ADD COLUMN duplicate_content   integer NOT NULL DEFAULT 0;

CREATE INDEX authors_project_id ON authors (project_id, id);
CREATE INDEX authors_project_trust ON authors (project_id, trust_level, id);
CREATE INDEX authors_project_violations ON authors (project_id, violation_count, id);
CREATE INDEX authors_project_reports ON authors (project_id, report_count, id);
CREATE INDEX authors_project_first_seen ON authors (project_id, first_seen, id);
CREATE INDEX authors_project_last_seen ON authors (project_id, last_seen, id);
CREATE INDEX authors_project_content ON authors (project_id, total_content, id);
CREATE INDEX authors_project_flagged_ratio ON authors (project_id, flagged_ratio, id);
-- Authors without sentiment sort lowest: first ascending, last descending.
CREATE INDEX authors_project_sentiment ON authors (project_id, average_sentiment ASC NULLS FIRST, id);

-- Normalized text fingerprints, to see the same (or trivially altered) text
-- posted by several authors. One row per fingerprint and author.
CREATE TABLE content_fingerprints (
  project_id   text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  fingerprint  text NOT NULL,
  author_id    text NOT NULL REFERENCES authors (id) ON DELETE CASCADE,
  first_seen   bigint NOT NULL,
  PRIMARY KEY (project_id, fingerprint, author_id)
);
CREATE INDEX content_fingerprints_author ON content_fingerprints (author_id);
