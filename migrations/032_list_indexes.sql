-- The flows list's pages read in its own order (newest first, id last), so a page is an index range whatever
-- the number of flows: a user's own flows, and a workspace's.
CREATE INDEX flows_own_list_idx ON flows (user_id, created_at DESC, id DESC) WHERE workspace_id IS NULL;
CREATE INDEX flows_workspace_list_idx ON flows (workspace_id, created_at DESC, id DESC)
  WHERE workspace_id IS NOT NULL;
-- A flow's request logs in the logs dialog's order (newest first, id last).
CREATE INDEX ai_request_logs_flow_list_idx ON ai_request_logs (flow_id, requested_at DESC, id DESC);
