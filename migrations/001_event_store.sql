-- The event store: one row per stream (its version guards concurrent appends) and the append-only log.
CREATE TABLE streams (
  stream_id   text PRIMARY KEY,
  stream_type text NOT NULL,
  version     bigint NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE SEQUENCE events_global_position_seq;

CREATE TABLE events (
  global_position bigint NOT NULL DEFAULT nextval('events_global_position_seq'),
  -- Readers order by (transaction_id, global_position) and stop below the oldest running transaction,
  -- so an event committed late by a slow transaction is never skipped.
  transaction_id  xid8 NOT NULL DEFAULT pg_current_xact_id(),
  stream_id       text NOT NULL REFERENCES streams (stream_id),
  stream_position bigint NOT NULL,
  event_id        uuid NOT NULL UNIQUE,
  event_type      text NOT NULL,
  data            jsonb NOT NULL,
  metadata        jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (stream_id, stream_position)
);

CREATE UNIQUE INDEX events_global_position_idx ON events (global_position);
CREATE INDEX events_transaction_order_idx ON events (transaction_id, global_position);
CREATE INDEX events_command_id_idx ON events ((metadata ->> 'commandId')) WHERE metadata ? 'commandId';
