-- Each review queue's open items (selected by its filter, not resolved in it), counted exactly by a
-- background job (src/services/queue-counts.ts) so the dashboard's overview reads one small row per
-- queue instead of counting millions of items per request.
--   filter        the queue's filter the count was made for: a count of another filter is not shown
--   open_count    null until a count succeeded (or after a filter change whose count failed)
--   counted_at    when the last successful count started (its figure is the state at about that time)
--   attempted_at  when the last count, successful or not, started: the schedule reads it
--   duration_ms   how long the last count took: a project whose counts are slow is counted less often
--   counted_by    the node that counted (diagnosis); error: why the last count failed, else null
CREATE TABLE queue_open_counts (
  queue_id      text PRIMARY KEY REFERENCES queues (id) ON DELETE CASCADE,
  project_id    text NOT NULL,
  filter        jsonb NOT NULL,
  open_count    bigint,
  counted_at    bigint,
  attempted_at  bigint NOT NULL,
  duration_ms   integer NOT NULL,
  counted_by    text NOT NULL,
  error         text
);
CREATE INDEX queue_open_counts_project ON queue_open_counts (project_id);

-- Background jobs that one node of a cluster runs at a time: the holder renews its lease while it
-- works and gives it up when it stops; a lease of a node that died is taken over when it expires.
CREATE TABLE job_leases (
  name        text PRIMARY KEY,
  holder      text NOT NULL,
  expires_at  bigint NOT NULL
);
