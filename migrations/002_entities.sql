-- Accounts and sign-in.
CREATE TABLE users (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email             text NOT NULL UNIQUE,
  first_name        text,
  last_name         text,
  profile_image_url text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE user_credentials (
  user_id       uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  password_salt text NOT NULL,
  password_hash text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sessions (
  sid    text PRIMARY KEY,
  sess   jsonb NOT NULL,
  expire timestamptz NOT NULL
);
CREATE INDEX sessions_expire_idx ON sessions (expire);

CREATE TABLE user_api_keys (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id           uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  key_name          text NOT NULL,
  encrypted_api_key text NOT NULL,
  key_type          text NOT NULL DEFAULT 'gemini',
  is_active         boolean NOT NULL DEFAULT true,
  last_used         timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX user_api_keys_user_idx ON user_api_keys (user_id);

-- Flows and their steps (plain CRUD tables).
CREATE TABLE flows (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name        text NOT NULL,
  description text NOT NULL,
  status      text NOT NULL DEFAULT 'draft',
  is_template boolean NOT NULL DEFAULT false,
  -- "Clear logs" hides the request logs up to this time; the event log keeps every request.
  logs_cleared_at timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX flows_user_idx ON flows (user_id, created_at);

CREATE TABLE steps (
  id                     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  flow_id                uuid NOT NULL REFERENCES flows (id) ON DELETE CASCADE,
  "order"                integer NOT NULL,
  name                   text NOT NULL,
  system_prompt          text NOT NULL DEFAULT '',
  output_mode            text NOT NULL DEFAULT 'single'
                         CHECK (output_mode IN ('single', 'multiple', 'multiple_choice', 'loop')),
  input_sources          jsonb NOT NULL DEFAULT '[]'::jsonb,
  choices                jsonb NOT NULL DEFAULT '[]'::jsonb,
  loop_target_step_id    uuid,
  max_loop_iterations    integer NOT NULL DEFAULT 1,
  current_loop_iteration integer NOT NULL DEFAULT 0,
  requires_user_input    boolean NOT NULL DEFAULT false,
  created_at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX steps_flow_idx ON steps (flow_id, "order");

-- Read models projected from the event log, inline in the append transaction. `position` is the
-- stream position a row reflects; older events are ignored, so a replay is harmless.
CREATE TABLE executions (
  id              uuid PRIMARY KEY,
  user_id         uuid NOT NULL,
  flow_id         uuid NOT NULL,
  status          text NOT NULL DEFAULT 'running',
  current_step    integer NOT NULL DEFAULT 1,
  execution_queue jsonb NOT NULL DEFAULT '[]'::jsonb,
  execution_cache jsonb NOT NULL DEFAULT '[]'::jsonb,
  steps           jsonb NOT NULL DEFAULT '[]'::jsonb,
  -- Model calls of this execution (running, succeeded, failed), so a reload mid-run shows it running.
  runs            jsonb NOT NULL DEFAULT '[]'::jsonb,
  started_at      timestamptz NOT NULL DEFAULT now(),
  completed_at    timestamptz,
  position        bigint NOT NULL
);
CREATE INDEX executions_flow_idx ON executions (flow_id, started_at DESC);
CREATE INDEX executions_user_idx ON executions (user_id);

CREATE TABLE step_results (
  id             uuid PRIMARY KEY,
  execution_id   uuid NOT NULL,
  step_id        uuid NOT NULL,
  step_order     integer NOT NULL,
  run_id         uuid NOT NULL,
  -- The result's place among the results of its run (branches keep the model's order).
  run_index      integer NOT NULL DEFAULT 0,
  label          text,
  branch_name    text,
  branch_path    text,
  choice_index   integer,
  loop_iteration integer,
  result         text NOT NULL,
  approved       boolean NOT NULL DEFAULT false,
  created_at     timestamptz NOT NULL DEFAULT now(),
  position       bigint NOT NULL
);
CREATE INDEX step_results_execution_idx ON step_results (execution_id, step_order, created_at, run_index);

CREATE TABLE ai_request_logs (
  id                     uuid PRIMARY KEY,
  user_id                uuid NOT NULL,
  flow_id                uuid NOT NULL,
  execution_id           uuid NOT NULL,
  step_id                uuid NOT NULL,
  step_order             integer NOT NULL,
  -- The StepRunStarted event this request belongs to.
  started_event_id       uuid NOT NULL,
  original_system_prompt text NOT NULL,
  final_prompt           text NOT NULL,
  user_input             text,
  output_mode            text NOT NULL,
  choices                jsonb NOT NULL DEFAULT '[]'::jsonb,
  step_labels            jsonb NOT NULL DEFAULT '{}'::jsonb,
  unresolved_labels      jsonb NOT NULL DEFAULT '[]'::jsonb,
  model                  text,
  key_source             text,
  ai_response            text,
  success                boolean,
  error_message          text,
  requested_at           timestamptz NOT NULL DEFAULT now(),
  position               bigint NOT NULL
);
CREATE INDEX ai_request_logs_flow_idx ON ai_request_logs (flow_id, requested_at);

CREATE TABLE user_usage (
  id               uuid PRIMARY KEY,
  user_id          uuid NOT NULL,
  execution_id     uuid,
  step_id          uuid,
  used_default_key boolean NOT NULL DEFAULT true,
  execution_date   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX user_usage_user_idx ON user_usage (user_id);

-- Saved work sessions.
CREATE TABLE user_sessions (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id        uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  flow_id        uuid,
  execution_id   uuid,
  session_name   text NOT NULL,
  session_data   jsonb NOT NULL DEFAULT '{}'::jsonb,
  last_active_at timestamptz NOT NULL DEFAULT now(),
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX user_sessions_user_idx ON user_sessions (user_id);

-- AI assistance around a flow.
CREATE TABLE ai_suggestions (
  id                       uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  flow_id                  uuid NOT NULL REFERENCES flows (id) ON DELETE CASCADE,
  flow_structure           jsonb NOT NULL DEFAULT '{}'::jsonb,
  suggestions              jsonb NOT NULL DEFAULT '{}'::jsonb,
  strategic_recommendation text,
  created_at               timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE ai_conversation_context (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id              uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  flow_id              uuid NOT NULL UNIQUE REFERENCES flows (id) ON DELETE CASCADE,
  conversation_history text NOT NULL DEFAULT '',
  rejected_ideas       text NOT NULL DEFAULT '',
  user_notes           text NOT NULL DEFAULT '',
  version              integer NOT NULL DEFAULT 1,
  last_updated         timestamptz NOT NULL DEFAULT now(),
  created_at           timestamptz NOT NULL DEFAULT now()
);

-- Recommendations, patterns, feedback and templates.
CREATE TABLE workflow_recommendations (
  id                        uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id                   uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  recommendation_type       text NOT NULL
                            CHECK (recommendation_type IN ('template', 'optimization', 'automation', 'enhancement')),
  title                     text NOT NULL,
  description               text NOT NULL,
  category                  text NOT NULL DEFAULT 'other'
                            CHECK (category IN ('productivity', 'automation', 'analysis', 'creative', 'business', 'other')),
  priority                  text NOT NULL DEFAULT 'medium' CHECK (priority IN ('urgent', 'high', 'medium', 'low')),
  confidence                integer NOT NULL DEFAULT 70,
  base_flow_id              uuid,
  recommended_steps         jsonb NOT NULL DEFAULT '[]'::jsonb,
  benefits                  jsonb NOT NULL DEFAULT '[]'::jsonb,
  estimated_time_reduction  integer,
  implementation_complexity text NOT NULL DEFAULT 'medium'
                            CHECK (implementation_complexity IN ('low', 'medium', 'high')),
  tags                      jsonb NOT NULL DEFAULT '[]'::jsonb,
  status                    text NOT NULL DEFAULT 'pending',
  user_feedback             text,
  feedback_count            integer NOT NULL DEFAULT 0,
  average_rating            numeric(3, 2),
  created_at                timestamptz NOT NULL DEFAULT now(),
  updated_at                timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX workflow_recommendations_user_idx ON workflow_recommendations (user_id);

CREATE TABLE user_workflow_patterns (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  pattern_type text NOT NULL,
  pattern_data jsonb NOT NULL DEFAULT '{}'::jsonb,
  frequency    integer NOT NULL DEFAULT 1,
  last_seen    timestamptz NOT NULL DEFAULT now(),
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX user_workflow_patterns_user_idx ON user_workflow_patterns (user_id);

CREATE TABLE recommendation_feedback (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  recommendation_id    uuid NOT NULL REFERENCES workflow_recommendations (id) ON DELETE CASCADE,
  user_id              uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  action               text NOT NULL CHECK (action IN ('accepted', 'dismissed', 'modified', 'implemented')),
  feedback             text,
  implementation_notes text,
  rating               integer CHECK (rating BETWEEN 1 AND 5),
  created_at           timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE workflow_templates (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name               text NOT NULL,
  description        text NOT NULL DEFAULT '',
  category           text NOT NULL DEFAULT 'other',
  difficulty         text NOT NULL DEFAULT 'beginner',
  estimated_duration integer,
  template_steps     jsonb NOT NULL DEFAULT '[]'::jsonb,
  tags               jsonb NOT NULL DEFAULT '[]'::jsonb,
  usage_count        integer NOT NULL DEFAULT 0,
  average_rating     numeric(3, 2) NOT NULL DEFAULT 0,
  is_public          boolean NOT NULL DEFAULT true,
  created_by         uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);

-- Master mode.
CREATE TABLE master_mode_sessions (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  flow_id      uuid REFERENCES flows (id) ON DELETE SET NULL,
  session_name text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX master_mode_sessions_user_idx ON master_mode_sessions (user_id);

CREATE TABLE master_mode_steps (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  session_id    uuid NOT NULL REFERENCES master_mode_sessions (id) ON DELETE CASCADE,
  "order"       integer NOT NULL,
  step_name     text NOT NULL,
  user_input    text NOT NULL DEFAULT '',
  result        text NOT NULL DEFAULT '',
  system_prompt text NOT NULL DEFAULT '',
  step_type     text NOT NULL DEFAULT 'ai' CHECK (step_type IN ('text', 'ai', 'api', 'calculation')),
  is_required   boolean NOT NULL DEFAULT false,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX master_mode_steps_session_idx ON master_mode_steps (session_id, "order");
