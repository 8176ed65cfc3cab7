-- Read model: every run of a master mode row (the audit of what ran, with what, and what came back).
-- Projected inline from the `master-<sessionId>` streams (MasterRowRun*) and rebuilt from the log;
-- `position` is the stream position the row reflects. No foreign keys: a deleted session or row keeps
-- its runs, as the log does.
CREATE TABLE master_mode_runs (
  id                     uuid PRIMARY KEY,
  user_id                uuid NOT NULL,
  session_id             uuid NOT NULL,
  step_id                uuid NOT NULL,
  row_number             integer NOT NULL,
  step_name              text NOT NULL,
  step_type              text NOT NULL,
  system_prompt          text NOT NULL,
  user_input             text NOT NULL,
  final_prompt           text NOT NULL,
  row_references         jsonb NOT NULL DEFAULT '{}'::jsonb,
  unresolved_references  jsonb NOT NULL DEFAULT '[]'::jsonb,
  model                  text,
  key_source             text,
  result                 text,
  success                boolean,
  error_message          text,
  duration_ms            integer,
  requested_at           timestamptz NOT NULL,
  position               bigint NOT NULL
);
CREATE INDEX master_mode_runs_session_idx ON master_mode_runs (session_id, requested_at);
