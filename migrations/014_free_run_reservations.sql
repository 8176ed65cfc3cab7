-- A run made without an own key holds one of the free allowance from before its model call until its
-- usage row is recorded (the trigger below releases it in that same transaction) or it fails (released by
-- the server). So at most the allowance runs at once, however many requests arrive together. A server that
-- dies mid-run leaves its reservation, which lapses at `expires_at` (the model timeout and a minute).
CREATE TABLE free_run_reservations (
  run_id     uuid PRIMARY KEY,
  user_id    uuid NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX free_run_reservations_user_idx ON free_run_reservations (user_id);

-- Reserves one free run for `run` of `who` when the runs counted and those still reserved leave room under
-- `allowance`; false otherwise. One user's reservations are decided one at a time (the advisory lock), and
-- each statement after the lock sees what the one before it committed.
CREATE FUNCTION reserve_free_run(who uuid, run uuid, allowance bigint, hold_ms bigint)
RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  counted bigint;
  held bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(7340214, hashtext(who::text));
  DELETE FROM free_run_reservations WHERE user_id = who AND expires_at <= now();
  SELECT coalesce((SELECT default_key_runs FROM user_usage_counts WHERE user_id = who), 0) INTO counted;
  SELECT count(*) FROM free_run_reservations WHERE user_id = who INTO held;
  IF counted + held >= allowance THEN
    RETURN false;
  END IF;
  INSERT INTO free_run_reservations (run_id, user_id, expires_at)
  VALUES (run, who, clock_timestamp() + hold_ms * interval '1 millisecond')
  ON CONFLICT (run_id) DO NOTHING;
  RETURN true;
END
$$;

CREATE OR REPLACE FUNCTION count_default_key_run() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_usage_counts AS c (user_id, default_key_runs) VALUES (NEW.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET default_key_runs = c.default_key_runs + 1;
  DELETE FROM free_run_reservations WHERE run_id = NEW.id;
  RETURN NULL;
END
$$;
