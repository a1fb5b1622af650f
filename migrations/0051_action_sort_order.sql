-- The order in which actions are offered to moderators; set by reordering them
-- in the dashboard. NULL (never reordered) sorts after every ordered action.
ALTER TABLE actions ADD COLUMN sort_order integer;
