import type { Sql, TransactionSql } from 'postgres';
import type { Statement } from '../../eventstore';

export interface WebhookRow {
  id: string;
  url: string;
  events: string[];
  createdAt: string;
}

export interface DeliveryRow {
  id: string;
  type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

/** A delivery still to be tried, with where it goes and the sealed secret it is signed with. */
export interface PendingDelivery {
  id: string;
  url: string;
  secretSealed: string;
  body: unknown;
}

/**
 * An event as webhooks get it: `{id, type, at, workspaceId, data}`, the id being the delivery's. An event of
 * one workspace goes to its webhooks; one of the whole service (workspaceId null: a checkpoint of the audit
 * log) to every webhook that asks for it, each body naming the webhook's workspace.
 */
export interface WebhookEvent {
  eventId: string;
  type: string;
  at: string;
  workspaceId: string | null;
  data: unknown;
}

/** Webhooks of workspaces and their deliveries. */
export class WebhooksRepository {
  constructor(private readonly sql: Sql) {}

  /** A new webhook, unless the workspace has `max` already: then nothing is written and false is answered. */
  async insert(
    hook: {
      id: string;
      workspaceId: string;
      url: string;
      events: string[];
      secretSealed: string;
      createdBy: string;
    },
    max: number,
  ): Promise<WebhookRow | null> {
    const { sql } = this;
    return sql.begin(async (tx) => {
      // One webhook made at a time per workspace: the count below holds until the insert commits.
      await tx`SELECT id FROM workspaces WHERE id = ${hook.workspaceId} FOR UPDATE`;
      const [row] = await tx<WebhookRow[]>`
        INSERT INTO webhooks (id, workspace_id, url, events, secret_sealed, created_by)
        SELECT ${hook.id}, ${hook.workspaceId}, ${hook.url}, ${hook.events}, ${hook.secretSealed}, ${hook.createdBy}
        WHERE (SELECT count(*) FROM webhooks WHERE workspace_id = ${hook.workspaceId}) < ${max}
        RETURNING id, url, events, created_at`;
      return row ?? null;
    });
  }

  list(workspaceId: string): Promise<WebhookRow[]> {
    return this.sql<WebhookRow[]>`
      SELECT id, url, events, created_at FROM webhooks WHERE workspace_id = ${workspaceId}
      ORDER BY created_at, id`;
  }

  /** Whether the webhook was there (and is gone now). */
  async delete(workspaceId: string, hookId: string): Promise<boolean> {
    const rows = await this.sql`DELETE FROM webhooks WHERE id = ${hookId} AND workspace_id = ${workspaceId}`;
    return rows.count > 0;
  }

  /** The webhook's last deliveries, newest first; null when the workspace has no such webhook. */
  async deliveries(workspaceId: string, hookId: string, limit = 100): Promise<DeliveryRow[] | null> {
    const [hook] = await this
      .sql`SELECT 1 FROM webhooks WHERE id = ${hookId} AND workspace_id = ${workspaceId}`;
    if (!hook) return null;
    return this.sql<DeliveryRow[]>`
      SELECT id, type, status, attempts, last_status_code, last_error, created_at, delivered_at
      FROM webhook_deliveries WHERE webhook_id = ${hookId}
      ORDER BY created_at DESC, id LIMIT ${limit}`;
  }

  /**
   * In the command's transaction: a delivery of the event for each webhook of its workspace (of every
   * workspace, for an event of the whole service) that wants its type, its body fixed now. Nothing when no
   * webhook wants it.
   */
  deliveriesOf(tx: TransactionSql, event: WebhookEvent): Statement {
    const wanted = tx`h.events && ARRAY[${event.type}, '*']::text[]`;
    return tx`
      INSERT INTO webhook_deliveries (id, webhook_id, event_id, type, body)
      SELECT d.id, d.webhook_id, ${event.eventId}, ${event.type},
        jsonb_build_object('id', d.id, 'type', ${event.type}::text, 'at', ${event.at}::text,
          'workspaceId', d.workspace_id::text, 'data', ${tx.json((event.data ?? null) as never)}::jsonb)
      FROM (
        SELECT gen_random_uuid() AS id, h.id AS webhook_id, h.workspace_id FROM webhooks h
        WHERE ${event.workspaceId === null ? wanted : tx`h.workspace_id = ${event.workspaceId} AND ${wanted}`}
      ) d
      ON CONFLICT (webhook_id, event_id) DO NOTHING`;
  }

  /** The event's deliveries not delivered yet. */
  pendingOf(eventId: string): Promise<PendingDelivery[]> {
    return this.sql<PendingDelivery[]>`
      SELECT d.id, h.url, h.secret_sealed, d.body
      FROM webhook_deliveries d JOIN webhooks h ON h.id = d.webhook_id
      WHERE d.event_id = ${eventId} AND d.status = 'pending'
      ORDER BY d.id`;
  }

  /** One try's outcome. */
  async recordTry(
    id: string,
    outcome: { delivered: boolean; statusCode: number | null; error: string | null },
  ) {
    await this.sql`
      UPDATE webhook_deliveries SET
        attempts = attempts + 1,
        last_status_code = ${outcome.statusCode},
        last_error = ${outcome.error},
        status = CASE WHEN ${outcome.delivered} THEN 'delivered' ELSE status END,
        delivered_at = CASE WHEN ${outcome.delivered} THEN now() ELSE delivered_at END
      WHERE id = ${id}`;
  }

  /** No more tries: the event's deliveries not delivered have failed. */
  async failPending(eventId: string) {
    await this.sql`
      UPDATE webhook_deliveries SET status = 'failed' WHERE event_id = ${eventId} AND status = 'pending'`;
  }
}
