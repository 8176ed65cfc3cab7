-- Workspaces: read models of the `workspace-<id>` streams (created, invited, joined, role changed, removed).
-- A flow or an execution may be in one; then its members' roles, not its owner, decide who may do what.
CREATE TABLE workspaces (
  id         uuid PRIMARY KEY,
  name       text NOT NULL,
  created_by uuid NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- The stream version this row reflects.
  position   bigint NOT NULL
);

CREATE TABLE workspace_members (
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  user_id      uuid NOT NULL,
  role         text NOT NULL CHECK (role IN ('owner', 'editor', 'reviewer', 'auditor')),
  joined_at    timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX workspace_members_user_idx ON workspace_members (user_id, workspace_id, role);

-- An invitation's token is never stored: only its SHA-256, which is what the acceptance looks up.
CREATE TABLE workspace_invitations (
  id           uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  email        text NOT NULL,
  role         text NOT NULL CHECK (role IN ('owner', 'editor', 'reviewer', 'auditor')),
  token_hash   text NOT NULL UNIQUE,
  invited_by   uuid NOT NULL,
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  accepted_by  uuid,
  accepted_at  timestamptz
);
CREATE INDEX workspace_invitations_workspace_idx ON workspace_invitations (workspace_id, created_at);

ALTER TABLE flows ADD COLUMN workspace_id uuid;
CREATE INDEX flows_workspace_idx ON flows (workspace_id, created_at) WHERE workspace_id IS NOT NULL;

-- An execution stays in the workspace its flow was in when it started, wherever the flow goes later.
ALTER TABLE executions ADD COLUMN workspace_id uuid;
CREATE INDEX executions_workspace_idx ON executions (workspace_id, started_at DESC, id)
  WHERE workspace_id IS NOT NULL;
