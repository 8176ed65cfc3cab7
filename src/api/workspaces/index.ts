export { type WebhookEvent, WebhooksRepository } from './webhooks-repository';
export { WorkspacesRepository } from './workspaces-repository';
