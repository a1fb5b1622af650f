-- When a key was last used (kept per node in memory and written at most every few seconds, so
-- the /v1 hot path never writes), and which dashboard user created it.
ALTER TABLE api_keys ADD COLUMN last_used_at bigint;
ALTER TABLE api_keys ADD COLUMN created_by text;
