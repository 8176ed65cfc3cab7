-- A re-run from a later step copies the approved results of the steps before it into the new execution.
-- The copy remembers where it came from (the execution, when it started, and the result), so an auditor
-- can follow the text back to the run and prompt that produced it. Null on results a run produced.
ALTER TABLE step_results
  ADD COLUMN source_execution_id         uuid,
  ADD COLUMN source_execution_started_at timestamptz,
  ADD COLUMN source_result_id            uuid;
