-- The rate limits' counts, shared by every server instance (src/api/rate-limit-store.ts): one row per limited
-- route and key (a user or a client address), with the count of its current window and when that window ends.
-- A request after reset_at starts a new window on the same row; rows whose window has ended are deleted now and
-- then. UNLOGGED: the counts are not worth the write-ahead log, and a crash only starts every window anew.
CREATE UNLOGGED TABLE rate_limits (
  key      text PRIMARY KEY,
  count    integer NOT NULL,
  reset_at timestamptz NOT NULL
);
