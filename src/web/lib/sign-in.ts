/** The sign-in page (served by the server, not the SPA). */
export const SIGN_IN_PATH = '/api/login';

/** The page open now: its path and query, what sign-in comes back to. */
export const currentPage = () => `${window.location.pathname}${window.location.search}`;

/** The sign-in page, going on to `next` (a path of this site) once signed in; the home page without one. */
export function signInUrl(next?: string): string {
  return next && next !== '/' ? `${SIGN_IN_PATH}?${new URLSearchParams({ next })}` : SIGN_IN_PATH;
}
