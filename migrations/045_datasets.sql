-- Datasets: read models of the `dataset-<id>` streams. A dataset belongs to a flow and lives where the flow
-- lives: who may read or change the flow (its row in `flows`, wherever it is now) may read or change its
-- datasets. flow_id is not a foreign key: `flows` keeps rows of its own that a rebuild writes over, and a
-- deleted flow's datasets stay in the log (they are missing, as the flow is). workspace_id: where the flow was
-- when the dataset was made.
CREATE TABLE datasets (
  id           uuid PRIMARY KEY,
  flow_id      uuid NOT NULL,
  workspace_id uuid,
  name         text NOT NULL,
  created_by   uuid NOT NULL,
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL,
  -- The stream version this row reflects: the dataset's version.
  position     bigint NOT NULL
);
-- A flow's datasets, newest first (the list, and the count a new one is checked against).
CREATE INDEX datasets_flow_idx ON datasets (flow_id, created_at DESC, id DESC);

-- Items are never deleted, only archived. Ordered by the version that added them, then their place in it.
CREATE TABLE dataset_items (
  id                  uuid PRIMARY KEY,
  dataset_id          uuid NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
  added_in_version    bigint NOT NULL,
  place               int NOT NULL,
  inputs              jsonb NOT NULL,
  expected            jsonb NOT NULL,
  tags                text[] NOT NULL,
  source              text NOT NULL CHECK (source IN ('manual', 'csv', 'execution')),
  source_execution_id uuid,
  added_by            uuid NOT NULL,
  added_at            timestamptz NOT NULL,
  archived            boolean NOT NULL
);
CREATE INDEX dataset_items_dataset_idx ON dataset_items (dataset_id, added_in_version, place);
