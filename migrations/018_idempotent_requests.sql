-- Every write a signed-in user names with an Idempotency-Key, and its first answer. The primary key is what
-- gives requests sent with one key at once exactly one effect: the first to insert its claim runs the route,
-- the others find the claim and wait for its answer. `fingerprint` is the sha256 of the request's method,
-- path and canonical body: the same key with another fingerprint is refused (422), never answered.
-- A claim with no answer yet (`status` null) is a request under way on the server instance `instance_id`;
-- once that process is gone (its advisory lock free), or the claim is older than the longest a request may
-- run, the next request with the key and fingerprint takes it over.
-- Answers that may pass when sent again (5xx, retryable problems) are not kept: their claim is deleted.
-- Not event-store state: rows are deleted a day after their claim (the server sweeps them), after which
-- the key may name a new request. Event-sourced commands also record their key in `idempotency_keys`.
CREATE TABLE idempotent_requests (
  user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  key           text NOT NULL,
  fingerprint   text NOT NULL,
  -- Which request holds the claim: only it may record the answer or give the claim up.
  claim         uuid NOT NULL,
  claimed_at    timestamptz NOT NULL DEFAULT now(),
  instance_id   integer,
  status        integer,
  content_type  text,
  body          text,
  PRIMARY KEY (user_id, key)
);

CREATE INDEX idempotent_requests_claimed_at_idx ON idempotent_requests (claimed_at);
