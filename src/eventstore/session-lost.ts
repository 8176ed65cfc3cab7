/** What postgres.js calls a connection that closed, was closed, or never opened. */
const CONNECTION_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECTION_ENDED',
  'CONNECT_TIMEOUT',
]);

/**
 * Whether a statement failed because its connection's session is gone (the connection closed or reset),
 * rather than refused on a session that goes on. postgres.js takes such a
 * connection back when it closes, and may connect it again for its next user at once: a reserved handle of the
 * gone session must then send nothing more, and not be released (it would hand that user's connection out
 * a second time).
 */
export function sessionLost(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, severity, syscall } = error as { code?: unknown; severity?: unknown; syscall?: unknown };
  // PostgreSQL's own error, even FATAL: postgres.js hands the FATAL that ended a session to the first statement
  // of the next session on that connection, a live one. The statement that was in flight when the session
  // ended is answered with the closed connection instead.
  if (typeof severity === 'string') return false;
  // A socket's own error (ECONNRESET, EPIPE, ETIMEDOUT): the connection closes behind it.
  if (typeof syscall === 'string') return true;
  return typeof code === 'string' && CONNECTION_CODES.has(code);
}
