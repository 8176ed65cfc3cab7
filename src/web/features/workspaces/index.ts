/** What other features use of the workspaces feature: a workspace's members. */
export { membersQueryOptions, useMembers } from './api/workspaces';
