/** The event types a webhook can ask for, in the order its screen shows them; `*` asks for all of them. */
export const WEBHOOK_EVENT_TYPES = [
  'review.requested',
  'review.decided',
  'review.due',
  'review.handedBack',
  'review.ownersToo',
  'review.withdrawn',
  'execution.completed',
  'checkpoint.published',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
