-- Review figures and trust levels for the dashboard's overview, kept on write like stats_hourly
-- (0061), so the overview reads a few thousand small rows instead of the audit log's reviews and
-- every author of the project.
--
-- review_hourly: one row per (project, hour of the entry, dimension, key, stripe) for the audit
-- kinds the overview shows: action and resolve (reviews), unresolve and trust_level (reviewers'
-- other decisions). Each dimension is kept on its own, so an hour has as many rows as it has
-- queues plus reviewers plus actions, not their product:
--   queue     key: the queue id ('' none); reviews of an item (action, resolve with item_created_at)
--   user      key: the user's email as the entry recorded it (else the API key id, else '')
--   key       key: the API key id ('' none), named when read so a renamed key shows its new name
--   action    key: the action's name, else its key, else ''; kind action only
-- n counts the entries; t0..t14 count the reviews of an item among them by time to review
-- (created_at - item_created_at) in doubling buckets: t0 under 1 minute (and negative times,
-- clock skew), tK from 2^(K-1) to 2^K minutes (K = 1..13, so t13 ends at 8,192 minutes, about
-- 5.7 days), t14 from there on (src/core/review-histogram.ts holds the same bounds). The audit
-- log is append-only, so inserts are the only change to follow.
CREATE TABLE review_hourly (
  project_id  text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  hour        bigint NOT NULL,
  dimension   text NOT NULL,
  key         text NOT NULL,
  stripe      smallint NOT NULL,
  n           bigint NOT NULL,
  t0 bigint NOT NULL, t1 bigint NOT NULL, t2 bigint NOT NULL, t3 bigint NOT NULL, t4 bigint NOT NULL,
  t5 bigint NOT NULL, t6 bigint NOT NULL, t7 bigint NOT NULL, t8 bigint NOT NULL, t9 bigint NOT NULL,
  t10 bigint NOT NULL, t11 bigint NOT NULL, t12 bigint NOT NULL, t13 bigint NOT NULL, t14 bigint NOT NULL,
  PRIMARY KEY (project_id, hour, dimension, key, stripe)
);

-- width_bucket with the bucket bounds gives the number of bounds at or below the time to review:
-- 0 under a minute, 14 from 8,192 minutes. Each entry counts once per dimension it has.
CREATE FUNCTION om_review_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO review_hourly (project_id, hour, dimension, key, stripe, n, t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14)
  SELECT e.project_id, e.hour, d.dimension, d.key, (pg_current_xact_id()::text::bigint % 8)::smallint, count(*),
    count(*) FILTER (WHERE b = 0), count(*) FILTER (WHERE b = 1), count(*) FILTER (WHERE b = 2), count(*) FILTER (WHERE b = 3),
    count(*) FILTER (WHERE b = 4), count(*) FILTER (WHERE b = 5), count(*) FILTER (WHERE b = 6), count(*) FILTER (WHERE b = 7),
    count(*) FILTER (WHERE b = 8), count(*) FILTER (WHERE b = 9), count(*) FILTER (WHERE b = 10), count(*) FILTER (WHERE b = 11),
    count(*) FILTER (WHERE b = 12), count(*) FILTER (WHERE b = 13), count(*) FILTER (WHERE b = 14)
  FROM (
    SELECT a.project_id, (a.created_at / 3600000) * 3600000 AS hour,
      CASE WHEN a.actor_user_id IS NOT NULL THEN 'user' ELSE 'key' END AS actor_kind,
      coalesce(a.actor_email, a.actor_key_id, '') AS actor,
      CASE WHEN a.kind IN ('action', 'resolve') AND a.item_created_at IS NOT NULL THEN coalesce(a.queue_id, '') END AS queue,
      CASE WHEN a.kind = 'action' THEN coalesce(a.action_name, a.action_key, '') END AS action,
      CASE WHEN a.kind IN ('action', 'resolve') AND a.item_created_at IS NOT NULL THEN width_bucket(a.created_at - a.item_created_at,
        '{60000,120000,240000,480000,960000,1920000,3840000,7680000,15360000,30720000,61440000,122880000,245760000,491520000}'::bigint[]) END AS b
    FROM new_entries a
    WHERE a.kind IN ('action', 'resolve', 'unresolve', 'trust_level')
  ) e
  CROSS JOIN LATERAL (VALUES (e.actor_kind, e.actor), ('queue', e.queue), ('action', e.action)) AS d(dimension, key)
  WHERE d.key IS NOT NULL
  GROUP BY 1, 2, 3, 4
  ORDER BY 1, 2, 3, 4
  ON CONFLICT (project_id, hour, dimension, key, stripe) DO UPDATE SET
    n = review_hourly.n + EXCLUDED.n,
    t0 = review_hourly.t0 + EXCLUDED.t0, t1 = review_hourly.t1 + EXCLUDED.t1, t2 = review_hourly.t2 + EXCLUDED.t2,
    t3 = review_hourly.t3 + EXCLUDED.t3, t4 = review_hourly.t4 + EXCLUDED.t4, t5 = review_hourly.t5 + EXCLUDED.t5,
    t6 = review_hourly.t6 + EXCLUDED.t6, t7 = review_hourly.t7 + EXCLUDED.t7, t8 = review_hourly.t8 + EXCLUDED.t8,
    t9 = review_hourly.t9 + EXCLUDED.t9, t10 = review_hourly.t10 + EXCLUDED.t10, t11 = review_hourly.t11 + EXCLUDED.t11,
    t12 = review_hourly.t12 + EXCLUDED.t12, t13 = review_hourly.t13 + EXCLUDED.t13, t14 = review_hourly.t14 + EXCLUDED.t14;
  RETURN NULL;
END
$$;

CREATE TRIGGER audit_log_review_rollup AFTER INSERT ON audit_log
  REFERENCING NEW TABLE AS new_entries
  FOR EACH STATEMENT EXECUTE FUNCTION om_review_rollup();

-- What was logged before this migration.
INSERT INTO review_hourly (project_id, hour, dimension, key, stripe, n, t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14)
SELECT e.project_id, e.hour, d.dimension, d.key, 0, count(*),
    count(*) FILTER (WHERE b = 0), count(*) FILTER (WHERE b = 1), count(*) FILTER (WHERE b = 2), count(*) FILTER (WHERE b = 3),
    count(*) FILTER (WHERE b = 4), count(*) FILTER (WHERE b = 5), count(*) FILTER (WHERE b = 6), count(*) FILTER (WHERE b = 7),
    count(*) FILTER (WHERE b = 8), count(*) FILTER (WHERE b = 9), count(*) FILTER (WHERE b = 10), count(*) FILTER (WHERE b = 11),
    count(*) FILTER (WHERE b = 12), count(*) FILTER (WHERE b = 13), count(*) FILTER (WHERE b = 14)
  FROM (
    SELECT a.project_id, (a.created_at / 3600000) * 3600000 AS hour,
      CASE WHEN a.actor_user_id IS NOT NULL THEN 'user' ELSE 'key' END AS actor_kind,
      coalesce(a.actor_email, a.actor_key_id, '') AS actor,
      CASE WHEN a.kind IN ('action', 'resolve') AND a.item_created_at IS NOT NULL THEN coalesce(a.queue_id, '') END AS queue,
      CASE WHEN a.kind = 'action' THEN coalesce(a.action_name, a.action_key, '') END AS action,
      CASE WHEN a.kind IN ('action', 'resolve') AND a.item_created_at IS NOT NULL THEN width_bucket(a.created_at - a.item_created_at,
        '{60000,120000,240000,480000,960000,1920000,3840000,7680000,15360000,30720000,61440000,122880000,245760000,491520000}'::bigint[]) END AS b
    FROM audit_log a
    WHERE a.kind IN ('action', 'resolve', 'unresolve', 'trust_level')
  ) e
  CROSS JOIN LATERAL (VALUES (e.actor_kind, e.actor), ('queue', e.queue), ('action', e.action)) AS d(dimension, key)
  WHERE d.key IS NOT NULL
  GROUP BY 1, 2, 3, 4;

-- Authors per trust level, striped like project_counters (0005). Inserts add, deletes subtract, updates move
-- an author whose level changed (a trigger with transition tables cannot be `UPDATE OF
-- trust_level`, so the old and new rows are compared; most author updates only touch last_seen
-- and add nothing).
CREATE TABLE trust_level_counts (
  project_id   text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  trust_level  smallint NOT NULL,
  stripe       smallint NOT NULL,
  n            bigint NOT NULL,
  PRIMARY KEY (project_id, trust_level, stripe)
);

CREATE FUNCTION om_trust_counts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO trust_level_counts (project_id, trust_level, stripe, n)
  SELECT a.project_id, a.trust_level, (pg_current_xact_id()::text::bigint % 8)::smallint, count(*)
  FROM new_authors a GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (project_id, trust_level, stripe) DO UPDATE SET n = trust_level_counts.n + EXCLUDED.n;
  RETURN NULL;
END
$$;

CREATE FUNCTION om_trust_counts_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO trust_level_counts (project_id, trust_level, stripe, n)
  SELECT project_id, trust_level, (pg_current_xact_id()::text::bigint % 8)::smallint, sum(d)
  FROM (
    SELECT o.project_id, o.trust_level, -1 AS d FROM old_authors o JOIN new_authors a ON a.id = o.id
    WHERE o.trust_level IS DISTINCT FROM a.trust_level OR o.project_id IS DISTINCT FROM a.project_id
    UNION ALL
    SELECT a.project_id, a.trust_level, 1 FROM old_authors o JOIN new_authors a ON a.id = o.id
    WHERE o.trust_level IS DISTINCT FROM a.trust_level OR o.project_id IS DISTINCT FROM a.project_id
  ) moved
  GROUP BY 1, 2
  HAVING sum(d) <> 0
  ORDER BY 1, 2
  ON CONFLICT (project_id, trust_level, stripe) DO UPDATE SET n = trust_level_counts.n + EXCLUDED.n;
  RETURN NULL;
END
$$;

CREATE FUNCTION om_trust_counts_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO trust_level_counts (project_id, trust_level, stripe, n)
  SELECT a.project_id, a.trust_level, (pg_current_xact_id()::text::bigint % 8)::smallint, -count(*)
  -- A project being deleted takes its counts with it (as project_counters, 0005): count nothing for it.
  FROM old_authors a WHERE EXISTS (SELECT 1 FROM projects p WHERE p.id = a.project_id)
  GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (project_id, trust_level, stripe) DO UPDATE SET n = trust_level_counts.n + EXCLUDED.n;
  RETURN NULL;
END
$$;

CREATE TRIGGER authors_trust_counts_inserted AFTER INSERT ON authors
  REFERENCING NEW TABLE AS new_authors
  FOR EACH STATEMENT EXECUTE FUNCTION om_trust_counts_inserted();

CREATE TRIGGER authors_trust_counts_updated AFTER UPDATE ON authors
  REFERENCING OLD TABLE AS old_authors NEW TABLE AS new_authors
  FOR EACH STATEMENT EXECUTE FUNCTION om_trust_counts_updated();

CREATE TRIGGER authors_trust_counts_deleted AFTER DELETE ON authors
  REFERENCING OLD TABLE AS old_authors
  FOR EACH STATEMENT EXECUTE FUNCTION om_trust_counts_deleted();

-- The authors stored before this migration.
INSERT INTO trust_level_counts (project_id, trust_level, stripe, n)
SELECT project_id, trust_level, 0, count(*) FROM authors GROUP BY 1, 2;
