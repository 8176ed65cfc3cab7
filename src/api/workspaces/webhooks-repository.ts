import type { Sql, TransactionSql } from 'postgres';
import type { Statement } from '../../eventstore';

export interface WebhookRow {
  id: string;
  url: string;
  events: string[];
  createdAt: string;
  /** Until when the secret before the last rotation still signs deliveries; null: none does. */
  previousSecretExpiresAt: Date | string | null;
}

const WEBHOOK_COLUMNS = 'id, url, events, created_at, previous_secret_until AS previous_secret_expires_at';

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
  type: string;
  url: string;
  secretSealed: string;
  /** The secret before the last rotation, and until when it signs too; null: none. */
  previousSecretSealed: string | null;
  previousSecretUntil: Date | string | null;
  body: unknown;
}

/**
 * An event as webhooks get it, Standard Webhooks' envelope `{type, timestamp, data}` (`timestamp` being the
 * event's `at`), the data with the webhook's `workspaceId` and names added; the delivery's id is its
 * `webhook-id` header. An event of one workspace goes to its webhooks; one of the whole service (workspaceId
 * null: a checkpoint of the audit log) to every webhook that asks for it, each body naming the webhook's
 * workspace.
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
        RETURNING ${tx.unsafe(WEBHOOK_COLUMNS)}`;
      return row ?? null;
    });
  }

  list(workspaceId: string): Promise<WebhookRow[]> {
    return this.sql<WebhookRow[]>`
      SELECT ${this.sql.unsafe(WEBHOOK_COLUMNS)} FROM webhooks WHERE workspace_id = ${workspaceId}
      ORDER BY created_at, id`;
  }

  /**
   * A new secret for the webhook; the one it had signs deliveries too until `previousUntil` (one before that
   * signs no more). Null when the workspace has no such webhook.
   */
  async rotate(
    workspaceId: string,
    hookId: string,
    secretSealed: string,
    previousUntil: Date,
  ): Promise<WebhookRow | null> {
    const [row] = await this.sql<WebhookRow[]>`
      UPDATE webhooks SET
        previous_secret_sealed = secret_sealed,
        previous_secret_until = ${previousUntil},
        secret_sealed = ${secretSealed}
      WHERE id = ${hookId} AND workspace_id = ${workspaceId}
      RETURNING ${this.sql.unsafe(WEBHOOK_COLUMNS)}`;
    return row ?? null;
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
  deliveriesOf(tx: TransactionSql, event: WebhookEvent, hookId?: string): Statement {
    const wanted =
      hookId === undefined ? tx`h.events && ARRAY[${event.type}, '*']::text[]` : tx`h.id = ${hookId}`;
    return tx`
      INSERT INTO webhook_deliveries (id, webhook_id, event_id, type, body)
      SELECT d.id, d.webhook_id, ${event.eventId}, ${event.type},
        jsonb_build_object('type', ${event.type}::text, 'timestamp', ${event.at}::text,
          'data', jsonb_build_object('workspaceId', d.workspace_id::text) ||
            webhook_named(${tx.json((event.data ?? {}) as never)}::jsonb))
      FROM (
        SELECT gen_random_uuid() AS id, h.id AS webhook_id, h.workspace_id FROM webhooks h
        WHERE ${event.workspaceId === null ? wanted : tx`h.workspace_id = ${event.workspaceId} AND ${wanted}`}
      ) d
      ON CONFLICT (webhook_id, event_id) DO NOTHING`;
  }

  /** Writes the statements in one transaction (deliveries and their job: see Notifications). */
  async write(statements: (tx: TransactionSql) => Statement[]) {
    await this.sql.begin((tx) => statements(tx));
  }

  /** The id of the webhook's delivery of an event; null: none. */
  async deliveryIdOf(hookId: string, eventId: string): Promise<string | null> {
    const [row] = await this.sql<{ id: string }[]>`
      SELECT id FROM webhook_deliveries WHERE webhook_id = ${hookId} AND event_id = ${eventId}`;
    return row?.id ?? null;
  }

  /**
   * A delivery of the workspace's webhook not delivered, to be tried now: pending (again, when it had failed).
   * Its event's id and whether it had failed; null when there is no such delivery or it was delivered.
   */
  async retry(
    workspaceId: string,
    hookId: string,
    deliveryId: string,
  ): Promise<{ eventId: string; wasFailed: boolean } | null> {
    const [row] = await this.sql<{ eventId: string; wasFailed: boolean }[]>`
      UPDATE webhook_deliveries d SET status = 'pending'
      FROM webhook_deliveries before, webhooks h
      WHERE d.id = ${deliveryId} AND before.id = d.id AND d.webhook_id = ${hookId} AND h.id = d.webhook_id
        AND h.workspace_id = ${workspaceId} AND d.status <> 'delivered'
      RETURNING d.event_id, before.status = 'failed' AS was_failed`;
    return row ?? null;
  }

  /** The delivery of the workspace's webhook as the deliveries list shows it; null: none. */
  async delivery(workspaceId: string, hookId: string, deliveryId: string): Promise<DeliveryRow | null> {
    const [row] = await this.sql<DeliveryRow[]>`
      SELECT d.id, d.type, d.status, d.attempts, d.last_status_code, d.last_error, d.created_at, d.delivered_at
      FROM webhook_deliveries d JOIN webhooks h ON h.id = d.webhook_id
      WHERE d.id = ${deliveryId} AND d.webhook_id = ${hookId} AND h.workspace_id = ${workspaceId}`;
    return row ?? null;
  }

  /** The event's deliveries not delivered yet; `deliveryId`: that one alone. */
  pendingOf(eventId: string, deliveryId?: string): Promise<PendingDelivery[]> {
    return this.sql<PendingDelivery[]>`
      SELECT d.id, d.type, h.url, h.secret_sealed, h.previous_secret_sealed, h.previous_secret_until, d.body
      FROM webhook_deliveries d JOIN webhooks h ON h.id = d.webhook_id
      WHERE d.event_id = ${eventId} AND d.status = 'pending'
        ${deliveryId === undefined ? this.sql`` : this.sql`AND d.id = ${deliveryId}`}
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

  /** No more tries: the event's deliveries not delivered (`deliveryId`: that one) have failed. */
  async failPending(eventId: string, deliveryId?: string) {
    await this.sql`
      UPDATE webhook_deliveries SET status = 'failed' WHERE event_id = ${eventId} AND status = 'pending'
        ${deliveryId === undefined ? this.sql`` : this.sql`AND id = ${deliveryId}`}`;
  }
}
