-- Personal and workspace API tokens: `Authorization: Bearer wb_pat_…` instead of the session cookie. Account
-- data, not events: a row per token, deleted when it is revoked. Only the token's SHA-256 is kept (the token
-- itself is shown once, when it is made); each request finds its row by that hash, through the unique index,
-- so a revoked (deleted) or expired token fails on every process at once. workspace_id: the one workspace the
-- token acts in (null: a personal token, which acts wherever its maker may); not a foreign key, since the
-- workspaces table is a projection that a rebuild empties and fills again.
CREATE TABLE api_tokens (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id        uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name           text NOT NULL,
  token_hash     text NOT NULL UNIQUE,
  scopes         text[] NOT NULL CHECK (cardinality(scopes) > 0
                   AND scopes <@ ARRAY['read', 'run', 'review', 'write', 'admin']::text[]),
  workspace_id   uuid,
  created_at     timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL,
  last_used_at   timestamptz,
  last_used_from text
);
-- A user's tokens, newest first (the tokens screen, and the count a new one is checked against).
CREATE INDEX api_tokens_user_idx ON api_tokens (user_id, created_at DESC, id DESC);
