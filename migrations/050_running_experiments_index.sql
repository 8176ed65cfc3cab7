-- The experiments a user has running, counted at every start (MAX_RUNNING_EXPERIMENTS_PER_USER): a partial
-- index of only those, so the count reads the running ones and never the ended ones, however many there are.
CREATE INDEX experiments_running_idx ON experiments (started_by) WHERE completed_at IS NULL AND stopped_at IS NULL;
