import { setTimeout as sleep } from 'node:timers/promises';
import type { Sql } from 'postgres';
import type { AuditLog, SignedCheckpoint } from '../../src/api/audit-log';

/**
 * Waits until every event of the database has its leaf in the audit log. Leaves follow the log's order, which
 * a write transaction running anywhere on the test database server (another test file's) holds back until it
 * ends: a test that counts on the leaves waits for them, bounded by its own timeout.
 */
export async function allLogged(auditLog: AuditLog, sql: Sql): Promise<void> {
  for (;;) {
    await auditLog.sequence();
    const [row] = await sql<{ unlogged: number }[]>`
      SELECT count(*)::int AS unlogged FROM events e
      WHERE NOT EXISTS (SELECT 1 FROM audit_log_leaves l WHERE l.global_position = e.global_position)`;
    if (row?.unlogged === 0) return;
    await sleep(10);
  }
}

/** A signed checkpoint over every event of the database (allLogged first). */
export async function loggedCheckpoint(auditLog: AuditLog, sql: Sql): Promise<SignedCheckpoint> {
  await allLogged(auditLog, sql);
  const checkpoint = await auditLog.checkpoint();
  if (checkpoint === null) throw new Error('the audit log is empty');
  return checkpoint;
}
