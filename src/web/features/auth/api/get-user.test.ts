import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userQueryOptions } from './get-user';

describe('the signed-in user', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is nobody (null) on 401, and a failure on any other error', async () => {
    const answer = vi.fn<typeof fetch>(async () =>
      Response.json({ message: 'Unauthorized' }, { status: 401 }),
    );
    vi.stubGlobal('fetch', answer);
    const queryClient = new QueryClient();
    await expect(queryClient.fetchQuery(userQueryOptions)).resolves.toBeNull();
    expect(answer.mock.calls[0]?.[0]).toBe('/api/auth/user');

    answer.mockImplementation(async () => Response.json({ message: 'Database away' }, { status: 503 }));
    await expect(queryClient.fetchQuery({ ...userQueryOptions, staleTime: 0 })).rejects.toThrow(
      '503: Database away',
    );
  });
});
