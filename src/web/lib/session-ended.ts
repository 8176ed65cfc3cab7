/**
 * The server ended this tab's sign-in session (signed out elsewhere, or expired), as the live updates
 * socket learns it. A module of its own, so the app shell can listen without loading the socket's code.
 */
const listeners = new Set<() => void>();

export function onSessionEnded(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function sessionEnded(): void {
  for (const listener of listeners) listener();
}
