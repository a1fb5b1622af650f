-- Cluster-wide request counters for rate limits and monthly quotas, when no Redis is configured.
-- Each node adds what it counted since its last sync and reads back the total (services/rate-limits.ts).
CREATE TABLE rate_counters (
  scope_key     text NOT NULL,
  window_start  bigint NOT NULL,
  count         bigint NOT NULL,
  expires_at    bigint NOT NULL,
  PRIMARY KEY (scope_key, window_start)
);
CREATE INDEX rate_counters_expiry ON rate_counters (expires_at);
