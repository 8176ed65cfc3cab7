/**
 * The server ended this tab's sign-in session (signed out elsewhere, or expired), as the live updates
 * socket learns it. A module of its own, so the app shell can listen without loading the socket's code.
 */
const listeners = new Set<() => void>();

/** Set once this tab signs out itself: the session it ends is not news, and its page is on its way out. */
let signingOut = false;

/**
 * This tab is signing out (its Sign out link was followed): the socket closing for it must not send the page
 * to sign-in, racing the sign-out's own way back to the landing page.
 */
export function signOutStarted(): void {
  signingOut = true;
}

export function onSessionEnded(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function sessionEnded(): void {
  if (signingOut) return;
  for (const listener of listeners) listener();
}
