-- Each user's count of runs made without an own key, kept by PostgreSQL as `user_usage` rows are inserted (by
-- the projections or a rebuild's COPY alike), so the free allowance is read from one row instead of counting
-- the user's rows on every step run: that count grew with the user's usage (8 ms at 22,000 rows), and an
-- allowance set high let it grow without end. `user_usage` rows are only ever inserted, or emptied with
-- this table by a rebuild.
CREATE TABLE user_usage_counts (
  user_id          uuid PRIMARY KEY,
  default_key_runs bigint NOT NULL
);

INSERT INTO user_usage_counts (user_id, default_key_runs)
SELECT user_id, count(*) FROM user_usage WHERE used_default_key GROUP BY user_id;

CREATE FUNCTION count_default_key_run() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_usage_counts AS c (user_id, default_key_runs) VALUES (NEW.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET default_key_runs = c.default_key_runs + 1;
  RETURN NULL;
END
$$;

CREATE TRIGGER user_usage_counted AFTER INSERT ON user_usage
FOR EACH ROW WHEN (NEW.used_default_key) EXECUTE FUNCTION count_default_key_run();
