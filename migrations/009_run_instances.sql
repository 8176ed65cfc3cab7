-- Server instances: each server process takes a number from this sequence at start and holds a session-level
-- advisory lock (server instance class, its number) for its whole life (src/api/server-instance.ts). A run
-- records the instance making it, so when that process is gone (its lock is free) the crash sweep fails
-- the run at once instead of after the model timeout. Numbers are never handed out twice in practice; a
-- number still locked is skipped.
CREATE SEQUENCE server_instances AS integer CYCLE;

-- The instance making each row run and running each Execute All; NULL on those recorded before it was kept
-- (no event before this migration names one).
ALTER TABLE master_mode_runs ADD COLUMN instance_id integer;
ALTER TABLE master_mode_execute_alls ADD COLUMN instance_id integer;
