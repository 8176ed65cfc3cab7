-- A master mode session's owner goes on its stream `master-<id>`: a session is opened by a MasterSessionOpened
-- event (and deleted by MasterSessionDeleted), so who may see it is decided on the stream like any other
-- aggregate. Every existing session gets its opening event now: a stream that has runs already gets it after
-- them, a session that never ran gets a stream of one event.
CREATE OR REPLACE FUNCTION pg_temp.iso(t timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS
  $$ SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;

INSERT INTO streams (stream_id, stream_type, version, created_at, updated_at)
SELECT 'master-' || m.id, 'master', 0, m.created_at, m.updated_at
FROM master_mode_sessions m
ON CONFLICT (stream_id) DO NOTHING;

INSERT INTO events (stream_id, stream_position, event_id, event_type, data, metadata)
WITH opened AS (
  SELECT m.*, s.version + 1 AS position, gen_random_uuid()::text AS command_id
  FROM master_mode_sessions m JOIN streams s ON s.stream_id = 'master-' || m.id
)
SELECT 'master-' || o.id, o.position, gen_random_uuid(), 'MasterSessionOpened',
       jsonb_build_object('sessionId', o.id, 'ownerId', o.user_id, 'flowId', o.flow_id,
                          'sessionName', o.session_name, 'createdAt', pg_temp.iso(o.created_at),
                          'at', pg_temp.iso(now())),
       jsonb_build_object('userId', o.user_id, 'commandId', o.command_id, 'correlationId', o.command_id)
FROM opened o
ORDER BY o.created_at, o.id;

UPDATE streams s SET version = s.version + 1, updated_at = now()
FROM master_mode_sessions m
WHERE s.stream_id = 'master-' || m.id;
