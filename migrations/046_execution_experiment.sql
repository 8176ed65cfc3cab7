-- The experiment an execution is a run of (its ExecutionStarted says so); null for every other execution.
ALTER TABLE executions ADD COLUMN experiment_id uuid;
CREATE INDEX executions_experiment_idx ON executions (experiment_id) WHERE experiment_id IS NOT NULL;
