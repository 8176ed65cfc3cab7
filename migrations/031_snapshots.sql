-- An aggregate's state as of a version of its stream, so a command on a long stream folds only the events
-- after it. A cache, never a record: every row can be dropped (a rebuild of the read models does) and is
-- then written again from the events. `shape` names the state's shape and its decider's rules; a row of
-- another shape is not read. One row per stream and shape, holding the newest version written.
-- `state` is json, not jsonb: kept as written (its objects' key order too), never queried inside.
CREATE TABLE snapshots (
  stream_id text NOT NULL,
  shape text NOT NULL,
  version bigint NOT NULL CHECK (version > 0),
  state json NOT NULL,
  written_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (stream_id, shape)
);
