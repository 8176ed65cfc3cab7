import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { EXECUTION_POLL_MS, executionQueryOptions } from '@/lib/execution-query';
import { apiKeysQueryOptions } from '../features/api-keys/api/get-api-keys';
import { usageQueryOptions } from '../features/api-keys/api/get-usage';
import { userQueryOptions } from '../features/auth/api/get-user';
import { createQueryClient } from '../lib/api-client';

/** The server cache settings, as the app's query client and its reads carry them. */
describe('query settings', () => {
  it('keeps data fresh 5 minutes and unused 10, never retries, never refetches on focus or interval', () => {
    const defaults = createQueryClient().getDefaultOptions();
    expect(defaults.queries).toMatchObject({
      staleTime: 5 * 60 * 1000,
      gcTime: 10 * 60 * 1000,
      retry: false,
      refetchOnWindowFocus: false,
      refetchInterval: false,
    });
    expect(defaults.mutations?.retry).toBe(false);
  });

  it('never retries the user call, the api-keys read or the usage read', () => {
    expect(userQueryOptions.retry).toBe(false);
    expect(apiKeysQueryOptions.retry).toBe(false);
    expect(usageQueryOptions.retry).toBe(false);
  });

  it('polls an execution every 1000 ms and refetches it when the window regains focus', () => {
    const options = executionQueryOptions('e1', new QueryClient());
    expect(EXECUTION_POLL_MS).toBe(1000);
    expect(options.refetchInterval).toBe(1000);
    expect(options.refetchOnWindowFocus).toBe(true);
    expect(options.queryKey).toEqual(['/api/executions', 'e1']);
  });
});
