-- Reviews by another person: a step's rule of who approves its results, and the reviews its runs ask for.
ALTER TABLE steps ADD COLUMN review jsonb;

-- The reviews of an execution as its state holds them (GET /api/executions/:id shows them).
ALTER TABLE executions ADD COLUMN reviews jsonb NOT NULL DEFAULT '[]';

-- One row per review an execution asked for: the inbox of the people who may decide it.
CREATE TABLE step_reviews (
  id                uuid PRIMARY KEY,
  execution_id      uuid NOT NULL,
  flow_id           uuid NOT NULL,
  workspace_id      uuid,
  step_id           uuid NOT NULL,
  step_name         text NOT NULL,
  run_id            uuid,
  requested_by      uuid NOT NULL,
  requested_at      timestamptz NOT NULL,
  due_at            timestamptz,
  by                text NOT NULL CHECK (by IN ('members', 'role')),
  user_ids          jsonb NOT NULL DEFAULT '[]',
  role              text,
  approvals_needed  int NOT NULL,
  self_approval     boolean NOT NULL,
  approvals_given   jsonb NOT NULL DEFAULT '[]',
  status            text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'expired')),
  decided_at        timestamptz,
  -- The execution stream position this row reflects.
  position          bigint NOT NULL
);
CREATE INDEX step_reviews_workspace_idx ON step_reviews (workspace_id, status, requested_at DESC, id);
CREATE INDEX step_reviews_execution_idx ON step_reviews (execution_id);
