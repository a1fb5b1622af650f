-- Per-project counters kept by triggers, so unfiltered totals (GET /v1/authors
-- pagination.total) need no count(*) over the project's rows. A counter is a
-- few striped rows summed on read: concurrent transactions creating authors in
-- one project mostly update different rows instead of queueing on one. A
-- transaction always uses the same stripe (derived from its transaction id),
-- so it holds at most one counter row per project and counter locks cannot
-- deadlock.
CREATE TABLE project_counters (
  project_id  text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name        text NOT NULL,
  stripe      smallint NOT NULL,
  value       bigint NOT NULL,
  PRIMARY KEY (project_id, name, stripe)
);

-- Statement-level with transition tables: a multi-row INSERT (the batch
-- writer's author upsert) costs one counter update per project. For INSERT ...
-- ON CONFLICT DO UPDATE the NEW TABLE holds only the rows actually inserted.
CREATE FUNCTION om_count_authors() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO project_counters (project_id, name, stripe, value)
    SELECT n.project_id, 'authors', (pg_current_xact_id()::text::bigint % 8)::smallint, count(*)
    FROM new_authors n GROUP BY n.project_id ORDER BY n.project_id
    ON CONFLICT (project_id, name, stripe) DO UPDATE SET value = project_counters.value + EXCLUDED.value;
  ELSE
    -- A project being deleted takes its counters with it: count nothing for it.
    INSERT INTO project_counters (project_id, name, stripe, value)
    SELECT o.project_id, 'authors', (pg_current_xact_id()::text::bigint % 8)::smallint, -count(*)
    FROM old_authors o WHERE EXISTS (SELECT 1 FROM projects p WHERE p.id = o.project_id)
    GROUP BY o.project_id ORDER BY o.project_id
    ON CONFLICT (project_id, name, stripe) DO UPDATE SET value = project_counters.value + EXCLUDED.value;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER authors_count_insert AFTER INSERT ON authors
  REFERENCING NEW TABLE AS new_authors
  FOR EACH STATEMENT EXECUTE FUNCTION om_count_authors();
CREATE TRIGGER authors_count_delete AFTER DELETE ON authors
  REFERENCING OLD TABLE AS old_authors
  FOR EACH STATEMENT EXECUTE FUNCTION om_count_authors();

INSERT INTO project_counters (project_id, name, stripe, value)
SELECT project_id, 'authors', 0, count(*) FROM authors GROUP BY project_id;
