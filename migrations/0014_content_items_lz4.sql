-- A stored item of a 280-character message is just over 2 kB, so only three fit on a heap page,
-- and extending the table by one zeroed page every three rows was the largest single cost of an
-- INSERT in PostgreSQL's profile (14% of the backends' CPU in mdextend). lz4 compresses the stored
-- evaluation to about 40% for a few microseconds, where pglz (which migration 0012 kept away from
-- these rows) cost more than it saved. PostgreSQL compresses a row only once it exceeds its fixed
-- threshold of about 2 kB (TOAST_TUPLE_THRESHOLD, 2,032 bytes); it then compresses the largest
-- documents until the row fits the target below, so such a row shrinks to about 1.1 kB, seven to a
-- page. Rows under the threshold (shorter messages) are stored as before. The target sits above such
-- compressed rows so that they stay inline instead of moving to the TOAST table; rows of up to 8 kB
-- that 0012 left uncompressed are now compressed too.
-- Neither setting rewrites the table: rows already stored stay as they are, new ones are compressed.
-- PostgreSQL built without lz4 (and the embedded store) rejects the method: those keep 0012's
-- uncompressed rows.
DO $$
BEGIN
  ALTER TABLE content_items
    ALTER COLUMN result SET COMPRESSION lz4,
    ALTER COLUMN content SET COMPRESSION lz4,
    ALTER COLUMN modified SET COMPRESSION lz4,
    ALTER COLUMN metadata SET COMPRESSION lz4,
    SET (toast_tuple_target = 1536);
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END
$$;
