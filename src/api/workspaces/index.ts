/**
 * The front door of the workspaces: what the other aggregates and the rest of src/api use of them (the
 * workspaces repository, and the webhooks notifications deliver to). Another aggregate imports the workspaces
 * from here and from nowhere else in this folder.
 */
export { type WebhookEvent, WebhooksRepository } from './webhooks-repository';
export { WorkspacesRepository } from './workspaces-repository';
