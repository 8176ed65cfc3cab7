/** The stream of a workspace's membership: `workspace-<workspaceId>`. */
export const WORKSPACE_STREAM_PREFIX = 'workspace-';
