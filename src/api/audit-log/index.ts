export { type AuditBundle, auditBundle, MAX_SINCE } from './audit-bundle';
export { AuditLog, type SignedCheckpoint } from './checkpoints';
export { checkAuditLog, type LogCheck, type LogProblem, problemLine } from './log-check';
export { default as auditLogPlugin } from './plugin';
export { auditBundleAnswer, auditLogRoutes, bundleSince } from './routes';
export { AUDIT_LOG_ORIGIN, loadAuditSigningKey, readVerifierKey } from './signing-key';
