-- Configuration changes made in the dashboard keep what changed: a list of
-- {path, before, after} (JSON pointers into the configuration document).
ALTER TABLE audit_log ADD COLUMN diff jsonb;
