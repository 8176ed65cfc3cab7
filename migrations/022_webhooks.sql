-- Webhooks of a workspace: where its owners want its events POSTed, and each delivery's outcome. The secret
-- each delivery is signed with is stored sealed under a key derived from APP_SECRET (like own API keys).
-- Not a read model: no foreign key to `workspaces`, which a rebuild of the read models empties and refills.
CREATE TABLE webhooks (
  id            uuid PRIMARY KEY,
  workspace_id  uuid NOT NULL,
  url           text NOT NULL,
  -- The event types sent, or '*' for all of them.
  events        text[] NOT NULL,
  secret_sealed text NOT NULL,
  created_by    uuid NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_workspace_idx ON webhooks (workspace_id, created_at);

-- One delivery of one event to one webhook, written in the transaction of the command whose event it is;
-- its body is fixed then, so every try sends the same id and data.
CREATE TABLE webhook_deliveries (
  id               uuid PRIMARY KEY,
  webhook_id       uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event_id         uuid NOT NULL,
  type             text NOT NULL,
  body             jsonb NOT NULL,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts         int NOT NULL DEFAULT 0,
  last_status_code int,
  last_error       text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  delivered_at     timestamptz,
  UNIQUE (webhook_id, event_id)
);
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id);
CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, created_at DESC);
