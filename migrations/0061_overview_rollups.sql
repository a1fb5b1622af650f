-- Hourly figures for the dashboard's overview, kept on write so a project with millions of
-- stored items draws its charts from a few thousand small rows instead of scanning its items.
-- One row per (project, hour, channel, metric, stripe); the value is a count. Metrics:
--   submissions, flagged, rec:allow, rec:review, rec:reject  (per channel)
--   policy:<policy id>   flagged items that policy flagged   (per channel; JSON read only for flagged items)
--   authors_new          authors created                      (channel '')
-- Counted when an item is first stored; a resubmission of the same contentId is not counted
-- again, but moves the item's verdict and flags to the new ones (doNotStore requests are never
-- stored). Deleting items leaves the figures: they describe what was submitted. Striped like project_counters (0005): concurrent
-- writers of one project update different rows; a transaction always uses one stripe.
CREATE TABLE stats_hourly (
  project_id  text NOT NULL,
  hour        bigint NOT NULL,
  channel_id  text NOT NULL,
  metric      text NOT NULL,
  stripe      smallint NOT NULL,
  value       bigint NOT NULL,
  PRIMARY KEY (project_id, hour, channel_id, metric, stripe)
);

CREATE FUNCTION om_stats_items() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_hourly (project_id, hour, channel_id, metric, stripe, value)
  SELECT project_id, hour, channel_id, metric, (pg_current_xact_id()::text::bigint % 8)::smallint, sum(n)
  FROM (
    SELECT i.project_id, (i.created_at / 3600000) * 3600000 AS hour, i.channel_id, m.metric, m.n
    FROM new_items i
    CROSS JOIN LATERAL (VALUES ('submissions', 1), ('flagged', CASE WHEN i.flagged THEN 1 ELSE 0 END), ('rec:' || i.recommendation, 1)) AS m(metric, n)
    UNION ALL
    SELECT i.project_id, (i.created_at / 3600000) * 3600000, i.channel_id, 'policy:' || (p.value->>'id'), 1
    FROM new_items i CROSS JOIN LATERAL json_array_elements(CASE WHEN i.flagged THEN i.result::json->'policies' ELSE '[]'::json END) AS p(value)
    WHERE p.value->>'flagged' = 'true'
  ) counted
  GROUP BY project_id, hour, channel_id, metric
  HAVING sum(n) > 0
  ORDER BY project_id, hour, channel_id, metric
  ON CONFLICT (project_id, hour, channel_id, metric, stripe) DO UPDATE SET value = stats_hourly.value + EXCLUDED.value;
  RETURN NULL;
END
$$;

CREATE TRIGGER content_items_stats AFTER INSERT ON content_items
  REFERENCING NEW TABLE AS new_items
  FOR EACH STATEMENT EXECUTE FUNCTION om_stats_items();

-- A resubmission (the write path's upsert) replaces the verdict: the old one's counts go, the new
-- one's come, in the hour the item was first stored.
CREATE FUNCTION om_stats_items_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH changed AS (
    SELECT o.project_id, o.created_at, o.channel_id, o.flagged, o.recommendation, o.result, -1 AS sign
    FROM old_items o JOIN new_items n ON n.id = o.id
    WHERE o.flagged IS DISTINCT FROM n.flagged OR o.recommendation IS DISTINCT FROM n.recommendation OR o.channel_id IS DISTINCT FROM n.channel_id
       OR (o.flagged AND o.result IS DISTINCT FROM n.result)
    UNION ALL
    SELECT n.project_id, n.created_at, n.channel_id, n.flagged, n.recommendation, n.result, 1
    FROM old_items o JOIN new_items n ON n.id = o.id
    WHERE o.flagged IS DISTINCT FROM n.flagged OR o.recommendation IS DISTINCT FROM n.recommendation OR o.channel_id IS DISTINCT FROM n.channel_id
       OR (o.flagged AND o.result IS DISTINCT FROM n.result)
  )
  INSERT INTO stats_hourly (project_id, hour, channel_id, metric, stripe, value)
  SELECT project_id, hour, channel_id, metric, (pg_current_xact_id()::text::bigint % 8)::smallint, sum(n)
  FROM (
    SELECT x.project_id, (x.created_at / 3600000) * 3600000 AS hour, x.channel_id, m.metric, x.sign * m.n AS n
    FROM changed x
    CROSS JOIN LATERAL (VALUES ('submissions', 1), ('flagged', CASE WHEN x.flagged THEN 1 ELSE 0 END), ('rec:' || x.recommendation, 1)) AS m(metric, n)
    UNION ALL
    SELECT x.project_id, (x.created_at / 3600000) * 3600000, x.channel_id, 'policy:' || (p.value->>'id'), x.sign
    FROM changed x CROSS JOIN LATERAL json_array_elements(CASE WHEN x.flagged THEN x.result::json->'policies' ELSE '[]'::json END) AS p(value)
    WHERE p.value->>'flagged' = 'true'
  ) counted
  GROUP BY project_id, hour, channel_id, metric
  HAVING sum(n) <> 0
  ORDER BY project_id, hour, channel_id, metric
  ON CONFLICT (project_id, hour, channel_id, metric, stripe) DO UPDATE SET value = stats_hourly.value + EXCLUDED.value;
  RETURN NULL;
END
$$;

CREATE TRIGGER content_items_stats_changed AFTER UPDATE ON content_items
  REFERENCING OLD TABLE AS old_items NEW TABLE AS new_items
  FOR EACH STATEMENT EXECUTE FUNCTION om_stats_items_changed();

CREATE FUNCTION om_stats_authors() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_hourly (project_id, hour, channel_id, metric, stripe, value)
  SELECT a.project_id, (a.created_at / 3600000) * 3600000, '', 'authors_new', (pg_current_xact_id()::text::bigint % 8)::smallint, count(*)
  FROM new_authors a GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (project_id, hour, channel_id, metric, stripe) DO UPDATE SET value = stats_hourly.value + EXCLUDED.value;
  RETURN NULL;
END
$$;

CREATE TRIGGER authors_stats AFTER INSERT ON authors
  REFERENCING NEW TABLE AS new_authors
  FOR EACH STATEMENT EXECUTE FUNCTION om_stats_authors();

-- What was stored before this migration.
INSERT INTO stats_hourly (project_id, hour, channel_id, metric, stripe, value)
SELECT project_id, hour, channel_id, metric, 0, sum(n)
FROM (
  SELECT i.project_id, (i.created_at / 3600000) * 3600000 AS hour, i.channel_id, m.metric, m.n
  FROM content_items i
  CROSS JOIN LATERAL (VALUES ('submissions', 1), ('flagged', CASE WHEN i.flagged THEN 1 ELSE 0 END), ('rec:' || i.recommendation, 1)) AS m(metric, n)
  UNION ALL
  SELECT i.project_id, (i.created_at / 3600000) * 3600000, i.channel_id, 'policy:' || (p.value->>'id'), 1
  FROM content_items i CROSS JOIN LATERAL json_array_elements(CASE WHEN i.flagged THEN i.result::json->'policies' ELSE '[]'::json END) AS p(value)
  WHERE p.value->>'flagged' = 'true'
  UNION ALL
  SELECT a.project_id, (a.created_at / 3600000) * 3600000, '', 'authors_new', 1 FROM authors a
) counted
GROUP BY project_id, hour, channel_id, metric
HAVING sum(n) > 0;

-- Reviews in a period (time to review, top reviewers and actions) read the audit log by time.
CREATE INDEX audit_log_project_time ON audit_log (project_id, created_at);
