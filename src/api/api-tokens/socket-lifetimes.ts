import type { SessionWatch } from '../auth/session-store';
import { type ApiTokensRepository, TOKEN_SOCKET_PREFIX } from './api-tokens-repository';

/**
 * What a live updates socket lives as long as: the sign-in session it was opened with, or the API token
 * (`token:<id>`). A revoked token is told on the sign-outs' channel (ApiTokensRepository.revoke), so its
 * sockets close on every process at once; the hub's periodic check finds an expired one.
 */
export function sessionsAndTokens(sessions: SessionWatch, tokens: ApiTokensRepository): SessionWatch {
  return {
    watchEndings: (ended, mayHaveMissed) => sessions.watchEndings(ended, mayHaveMissed),
    async expiries(ids) {
      const tokenIds = ids.filter((id) => id.startsWith(TOKEN_SOCKET_PREFIX));
      const [ofSessions, ofTokens] = await Promise.all([
        sessions.expiries(ids.filter((id) => !id.startsWith(TOKEN_SOCKET_PREFIX))),
        tokens.expiries(tokenIds.map((id) => id.slice(TOKEN_SOCKET_PREFIX.length))),
      ]);
      for (const [id, expiresAt] of ofTokens) ofSessions.set(TOKEN_SOCKET_PREFIX + id, expiresAt);
      return ofSessions;
    },
  };
}
