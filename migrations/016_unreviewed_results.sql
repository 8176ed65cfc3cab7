-- The results a run's prompt used while nobody had approved them (its StepRunStarted names them). Requests
-- recorded before runs named them used none, as far as anyone can show: an empty list.
ALTER TABLE ai_request_logs ADD COLUMN unreviewed_results jsonb NOT NULL DEFAULT '[]'::jsonb;
