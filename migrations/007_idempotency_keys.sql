-- A client's Idempotency-Key, scoped to who sent it, and what the command it named appended. The primary key
-- is what gives concurrent requests with one key exactly one effect: the row is inserted in the append's
-- transaction, so a second request waits for the first to commit and then finds its outcome here.
-- Event-store state, not a read model: nothing rebuilds it and nothing truncates it.
CREATE TABLE idempotency_keys (
  scope          text NOT NULL,
  key            text NOT NULL,
  command_type   text NOT NULL,
  stream_id      text NOT NULL,
  from_position  bigint NOT NULL,
  to_position    bigint NOT NULL,
  recorded_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, key)
);
