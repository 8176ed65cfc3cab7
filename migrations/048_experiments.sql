-- Experiments: read models of the `experiment-<id>` streams, one row each, for the lists (a flow's
-- experiments, its latest per version, its baseline). An experiment lives where its flow lives: who may read
-- the flow (its row in `flows`, wherever it is now) may read its experiments. Everything else about an
-- experiment (its runs, scores) is read from its stream.
CREATE TABLE experiments (
  id               uuid PRIMARY KEY,
  flow_id          uuid NOT NULL,
  flow_version     int NOT NULL,
  workspace_id     uuid,
  dataset_id       uuid NOT NULL,
  dataset_version  int NOT NULL,
  baseline_id      uuid,
  runs_total       int NOT NULL,
  runs_finished    int NOT NULL,
  started_by       uuid NOT NULL,
  started_at       timestamptz NOT NULL,
  stopped_at       timestamptz,
  completed_at     timestamptz,
  -- When it was last promoted to baseline: the flow's baseline is the row promoted last.
  promoted_at      timestamptz,
  updated_at       timestamptz NOT NULL,
  -- The stream version this row reflects.
  position         bigint NOT NULL
);
-- A flow's experiments, newest first.
CREATE INDEX experiments_flow_idx ON experiments (flow_id, started_at DESC, id DESC);
