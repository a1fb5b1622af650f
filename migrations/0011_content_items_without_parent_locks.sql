-- Every content row checked its project and channel through foreign keys, and each check takes
-- a FOR KEY SHARE lock on the same two parent rows in every concurrent write transaction. Under
-- group commit that serialises writers on multixact locks for no benefit: the pipeline resolves
-- the channel within the project before it writes, projects are never deleted through the API,
-- and a deleted channel should not silently erase the moderation history filed under it.
-- The author foreign key stays: deleting an author erases their content (the erasure path).
ALTER TABLE content_items DROP CONSTRAINT IF EXISTS content_items_project_id_fkey;
ALTER TABLE content_items DROP CONSTRAINT IF EXISTS content_items_channel_id_fkey;
