-- Read model: every Execute All of a master mode session, projected inline from the `master-<sessionId>`
-- streams and rebuilt from the log. The open ones (ended_at IS NULL) are what the crash sweep looks at.
CREATE TABLE master_mode_execute_alls (
  id              uuid PRIMARY KEY,
  session_id      uuid NOT NULL,
  started_at      timestamptz NOT NULL,
  stop_requested  boolean NOT NULL DEFAULT false,
  ended_at        timestamptz,
  outcome         text,
  message         text,
  position        bigint NOT NULL
);
CREATE INDEX master_mode_execute_alls_open_idx ON master_mode_execute_alls (started_at) WHERE ended_at IS NULL;
CREATE INDEX master_mode_runs_unfinished_idx ON master_mode_runs (requested_at) WHERE success IS NULL;

-- The Execute Alls already in the log.
INSERT INTO master_mode_execute_alls (id, session_id, started_at, stop_requested, ended_at, outcome, message, position)
SELECT (s.data ->> 'runAllId')::uuid, substr(s.stream_id, length('master-') + 1)::uuid, (s.data ->> 'at')::timestamptz,
  EXISTS (SELECT 1 FROM events x WHERE x.stream_id = s.stream_id AND x.event_type = 'MasterExecuteAllStopped'
            AND x.data ->> 'runAllId' = s.data ->> 'runAllId'),
  (e.data ->> 'at')::timestamptz, e.data ->> 'outcome', e.data ->> 'message',
  COALESCE(e.stream_position, s.stream_position)
FROM events s
LEFT JOIN events e ON e.stream_id = s.stream_id AND e.event_type = 'MasterExecuteAllEnded'
  AND e.data ->> 'runAllId' = s.data ->> 'runAllId'
WHERE s.event_type = 'MasterExecuteAllStarted'
ON CONFLICT (id) DO NOTHING;
