-- A master mode session counts the edits of its rows (added, changed, deleted), so an Execute All running
-- them asks one number between rows, not every row, to learn whether it must read the rows again.
ALTER TABLE master_mode_sessions ADD COLUMN rows_version bigint NOT NULL DEFAULT 0;
