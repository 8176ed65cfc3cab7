import type { Sql } from 'postgres';
import type { AuditLog, SignedCheckpoint } from '../../src/api/audit-log';

/** Waits at most this long for one run of the sequencer (the test's own timeout bounds the whole wait). */
const RUN_WAIT_MS = 5_000;

/**
 * Waits until every event of the database has its leaf in the audit log. Leaves follow the log's order, which
 * a write transaction running anywhere on the test database server (another test file's) holds back until it
 * ends; the sequencer runs again when the log hears of the held-back events, and this waits for its runs.
 */
export async function allLogged(auditLog: AuditLog, sql: Sql): Promise<void> {
  for (;;) {
    await auditLog.sequence();
    // The next run after this one: a wake-up of the log's (held-back events now readable), or another process's.
    const next = auditLog.nextSequenced(RUN_WAIT_MS);
    const [row] = await sql<{ unlogged: number }[]>`
      SELECT count(*)::int AS unlogged FROM events e
      WHERE NOT EXISTS (SELECT 1 FROM audit_log_leaves l WHERE l.global_position = e.global_position)`;
    if (row?.unlogged === 0) return;
    await next;
  }
}

/** A signed checkpoint over every event of the database (allLogged first). */
export async function loggedCheckpoint(auditLog: AuditLog, sql: Sql): Promise<SignedCheckpoint> {
  await allLogged(auditLog, sql);
  const checkpoint = await auditLog.checkpoint();
  if (checkpoint === null) throw new Error('the audit log is empty');
  return checkpoint;
}
