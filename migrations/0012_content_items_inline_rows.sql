-- A stored item (text, full result, metadata) is usually 2 to 4 kB. Above about 2 kB PostgreSQL
-- compresses such rows with pglz on every insert, which cost more CPU per row than any index.
-- Rows up to the largest inline size now stay uncompressed; larger ones are still TOASTed.
ALTER TABLE content_items SET (toast_tuple_target = 8160);
