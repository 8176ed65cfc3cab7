-- Read model: each result a user deleted is a rejected idea the flow's next runs are told not to repeat.
-- Projected inline from ResultDeleted (and rebuilt from the log); `position` is the stream position the
-- row reflects. `id` is the deleted result's id, so a replay adds nothing twice.
CREATE TABLE rejected_ideas (
  id           uuid PRIMARY KEY,
  user_id      uuid NOT NULL,
  flow_id      uuid NOT NULL,
  execution_id uuid NOT NULL,
  step_id      uuid,
  step_order   integer,
  label        text,
  content      text NOT NULL,
  deleted_at   timestamptz NOT NULL,
  position     bigint NOT NULL
);
CREATE INDEX rejected_ideas_flow_idx ON rejected_ideas (flow_id, deleted_at);

-- A flow's rejected ideas and its conversation are derived from the event log (rejected_ideas and
-- ai_request_logs), so the context row keeps only what the user types: the notes. Copies here would
-- be a second truth that a rebuild could not restore.
ALTER TABLE ai_conversation_context DROP COLUMN conversation_history, DROP COLUMN rejected_ideas;
