-- The audit log: one Merkle tree (RFC 9162) over every stream's events, a leaf per event in the log's order,
-- kept by one sequencer at a time right after the events commit (src/eventstore/audit-log.ts). A leaf names its
-- event and fixes its content by a hash (src/domain/audit/event-leaf.ts); the leaves and the completed inner
-- nodes answer proofs without reading the whole log. The tree's heads are signed by a key that is not in the
-- database (signed checkpoints), so rewriting these tables along with the events shows to anyone holding an
-- earlier checkpoint and the public key.
CREATE TABLE audit_log_leaves (
  leaf_index      bigint PRIMARY KEY,
  -- Where the sequencer resumes: the event's place in the log's order. A restore leaves it to its default, the
  -- restoring transaction's id, as it does the events' own (transaction ids of another cluster mean nothing).
  transaction_id  xid8 NOT NULL DEFAULT pg_current_xact_id(),
  global_position bigint NOT NULL,
  stream_id       text NOT NULL,
  stream_position bigint NOT NULL,
  hash            bytea NOT NULL
);

CREATE INDEX audit_log_leaves_stream_idx ON audit_log_leaves (stream_id, stream_position);
-- An event has one leaf at most, whatever happens to the sequencer's lock; and an event's leaf is found by it.
CREATE UNIQUE INDEX audit_log_leaves_event_idx ON audit_log_leaves (global_position);

-- The perfect subtrees above the leaves: node (level, node_index) covers leaves
-- [node_index * 2^level, (node_index + 1) * 2^level). Written once, when its last leaf arrives.
CREATE TABLE audit_log_nodes (
  level      smallint NOT NULL CHECK (level > 0),
  node_index bigint NOT NULL,
  hash       bytea NOT NULL,
  PRIMARY KEY (level, node_index)
);

-- The signed tree heads: the C2SP checkpoint note, whole, as it was signed and published.
CREATE TABLE audit_checkpoints (
  size       bigint PRIMARY KEY,
  root_hash  bytea NOT NULL,
  at         timestamptz NOT NULL,
  key_id     text NOT NULL,
  note       text NOT NULL
);
