-- Flows become event-sourced: every change of a flow or its steps is an event of its stream `flow-<id>`, and
-- `flows`/`steps` are read models projected from it (src/projections/project-flow-events.ts). A flow's version is
-- its stream's position, kept on its row for the executions that start from it.
ALTER TABLE flows ADD COLUMN version bigint NOT NULL DEFAULT 0;

-- An execution records the flow version it started from (null: started before flows had versions).
ALTER TABLE executions ADD COLUMN flow_version bigint;

-- Times as the events carry them (ISO text to the millisecond), so the read models and their replay agree.
UPDATE flows SET created_at = date_trunc('milliseconds', created_at),
                 updated_at = date_trunc('milliseconds', updated_at);
UPDATE steps SET created_at = date_trunc('milliseconds', created_at);

-- Every existing flow becomes a stream of one event: FlowImported, with the flow and its steps as they stand.
CREATE FUNCTION pg_temp.iso(t timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS
  $$ SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;

INSERT INTO streams (stream_id, stream_type, version, created_at, updated_at)
SELECT 'flow-' || id, 'flow', 1, created_at, updated_at FROM flows;

INSERT INTO events (stream_id, stream_position, event_id, event_type, data, metadata)
WITH imported AS (SELECT *, gen_random_uuid()::text AS command_id FROM flows)
SELECT 'flow-' || f.id, 1, gen_random_uuid(), 'FlowImported',
       jsonb_build_object(
         'flowId', f.id, 'userId', f.user_id, 'createdAt', pg_temp.iso(f.created_at),
         'details', jsonb_build_object('name', f.name, 'description', f.description, 'status', f.status,
                                       'isTemplate', f.is_template),
         'steps', coalesce((
           SELECT jsonb_agg(jsonb_build_object(
                    'id', s.id, 'order', s."order", 'name', s.name, 'systemPrompt', s.system_prompt,
                    'outputMode', s.output_mode, 'inputSources', s.input_sources, 'choices', s.choices,
                    'loopTargetStepId', s.loop_target_step_id, 'maxLoopIterations', s.max_loop_iterations,
                    'currentLoopIteration', s.current_loop_iteration,
                    'requiresUserInput', s.requires_user_input, 'createdAt', pg_temp.iso(s.created_at))
                  ORDER BY s."order", s.created_at, s.id)
           FROM steps s WHERE s.flow_id = f.id), '[]'::jsonb),
         'at', pg_temp.iso(f.updated_at)),
       jsonb_build_object('userId', f.user_id, 'commandId', f.command_id, 'correlationId', f.command_id)
FROM imported f
ORDER BY f.created_at, f.id;

UPDATE flows SET version = 1;
