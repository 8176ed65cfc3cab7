import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { encodeBase64 } from '../../domain/audit/signed-note';
import { AuditLog } from './checkpoints';
import { loadAuditSigningKey } from './signing-key';

declare module 'fastify' {
  interface FastifyInstance {
    /** The signed audit log over every event: its leaves, checkpoints and proofs. */
    auditLog: AuditLog;
  }
}

/**
 * The audit log of this process: every commit of any process, heard from the log, gets its leaves (one
 * process sequences at a time), and a checkpoint is signed every CHECKPOINT_EVERY_SECONDS when the log grew.
 */
export default fp(
  async (app: FastifyInstance) => {
    const { config } = app;
    const key = await loadAuditSigningKey(config.auditSigningKeyFile);
    const auditLog = new AuditLog(app.sql, key, {
      checkpointDir: config.checkpointDir,
      onPublished: (checkpoint) =>
        app.notifications.publishCheckpoint(app.sql, {
          origin: key.name,
          size: checkpoint.size,
          rootHash: encodeBase64(checkpoint.rootHash),
          at: checkpoint.at,
          keyId: checkpoint.keyId,
          note: checkpoint.note,
        }),
      onError: (error, what) => app.log.warn({ err: error }, `audit log: ${what} failed; tried again later`),
    });
    app.decorate('auditLog', auditLog);
    app.followers.follow('the audit log (a leaf per event)', 'log', () => auditLog.wake());
    auditLog.wake();
    auditLog.start(config.checkpointEverySeconds);
    app.addHook('onClose', () => auditLog.stop());
  },
  { name: 'audit-log', decorators: { fastify: ['config', 'sql', 'followers', 'notifications'] } },
);
