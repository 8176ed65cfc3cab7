import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  apiErrorOf,
  apiRequest,
  createQueryClient,
  getQueryFn,
  newRequestKey,
  pathOfQueryKey,
} from './api-client';

describe('apiErrorOf', () => {
  it('uses the JSON message and the retryable flag', () => {
    const error = apiErrorOf(
      429,
      'Too Many Requests',
      JSON.stringify({ message: 'Hết lượt miễn phí', retryable: true }),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('429: Hết lượt miễn phí');
    expect(error.retryable).toBe(true);
    expect(error.status).toBe(429);
  });

  it('falls back to the status text when the JSON has no message, and retryable defaults to false', () => {
    const error = apiErrorOf(404, 'Not Found', '{}');
    expect(error.message).toBe('404: Not Found');
    expect(error.retryable).toBe(false);
  });

  it('shows a non-JSON body as it is, or the status text when it is empty', () => {
    expect(apiErrorOf(502, 'Bad Gateway', '<html>oops</html>').message).toBe('502: <html>oops</html>');
    expect(apiErrorOf(500, 'Internal Server Error', '').message).toBe('500: Internal Server Error');
  });
});

describe('apiRequest', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends cookies, and a JSON body with its content type only when there is a body', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ id: 'f1' }), { status: 201 }));
    vi.stubGlobal('fetch', fetchMock);
    await apiRequest('POST', '/api/flows', { name: 'A' });
    await apiRequest('POST', '/api/executions/e1/stop');
    const [, withBody] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    const [, withoutBody] = fetchMock.mock.calls[1] as unknown as [string, RequestInit];
    expect(withBody).toMatchObject({
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(withBody.body).toBe('{"name":"A"}');
    expect(withoutBody.credentials).toBe('include');
    expect(withoutBody.headers).not.toHaveProperty('Content-Type');
    expect(withoutBody.body).toBeUndefined();
  });

  it('gives every write an Idempotency-Key of its own (one per call), and reads none', async () => {
    const fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    await apiRequest('POST', '/api/executions/e1/steps/s1/execute', { userInput: '' });
    await apiRequest('POST', '/api/executions/e1/steps/s1/execute', { userInput: '' });
    await apiRequest('PUT', '/api/flows/f1', { name: 'B' });
    await apiRequest('PATCH', '/api/flows/f1/context', { notes: 'n' });
    await apiRequest('DELETE', '/api/flows/f1');
    await apiRequest('GET', '/api/flows');
    const keys = (fetchMock.mock.calls as unknown as [string, RequestInit][]).map(
      ([, init]) => (init.headers as Record<string, string>)['Idempotency-Key'],
    );
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    for (const key of keys.slice(1, 5)) expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys.slice(0, 5)).size).toBe(5);
    expect(keys[5]).toBeUndefined();
  });

  it('sends a write whose connection failed again with the same key, and a call sent again with its key', async () => {
    vi.useFakeTimers();
    try {
      const fetchMock = vi
        .fn()
        .mockRejectedValueOnce(new TypeError('Failed to fetch'))
        .mockImplementation(async () => new Response(JSON.stringify({ id: 'r1' }), { status: 201 }));
      vi.stubGlobal('fetch', fetchMock);
      const answer = apiRequest('POST', '/api/master-mode/steps', { stepName: 'A' });
      await vi.runAllTimersAsync();
      await expect(answer).resolves.toEqual({ id: 'r1' });
      await apiRequest('POST', '/api/master-mode/steps', { stepName: 'A' }, { requestKey: 'same-action' });
      const keys = (fetchMock.mock.calls as unknown as [string, RequestInit][]).map(
        ([, init]) => (init.headers as Record<string, string>)['Idempotency-Key'],
      );
      expect(keys).toHaveLength(3);
      expect(keys[1]).toBe(keys[0]);
      expect(keys[2]).toBe('same-action');
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives up on a write after its last resend, and never sends a read again', async () => {
    vi.useFakeTimers();
    try {
      const fetchMock = vi.fn().mockRejectedValue(new TypeError('Failed to fetch'));
      vi.stubGlobal('fetch', fetchMock);
      const write = apiRequest('DELETE', '/api/flows/f1');
      const failed = expect(write).rejects.toThrow('Failed to fetch');
      await vi.runAllTimersAsync();
      await failed;
      expect(fetchMock).toHaveBeenCalledTimes(3);
      await expect(apiRequest('GET', '/api/flows')).rejects.toThrow('Failed to fetch');
      expect(fetchMock).toHaveBeenCalledTimes(4);
    } finally {
      vi.useRealTimers();
    }
  });

  it('makes a key without crypto.randomUUID too (a page over plain http)', () => {
    const randomUUID = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      expect(newRequestKey()).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: randomUUID, configurable: true });
    }
  });

  it('answers null for 204', async () => {
    vi.stubGlobal('fetch', async () => new Response(null, { status: 204 }));
    await expect(apiRequest('DELETE', '/api/flows/f1')).resolves.toBeNull();
  });
});

describe('default query function', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('joins the key into a GET path', () => {
    expect(pathOfQueryKey(['/api/flows', 'f1', 'steps'])).toBe('/api/flows/f1/steps');
  });

  it('yields null on 401 when asked to, and fails otherwise', async () => {
    vi.stubGlobal(
      'fetch',
      async () => new Response(JSON.stringify({ message: 'Unauthorized' }), { status: 401 }),
    );
    const context = { queryKey: ['/api/auth/user'], signal: new AbortController().signal } as never;
    await expect(getQueryFn({ on401: 'returnNull' })(context)).resolves.toBeNull();
    await expect(getQueryFn({ on401: 'throw' })(context)).rejects.toThrow('401: Unauthorized');
  });
});

describe('createQueryClient', () => {
  it('tells every failed mutation, with its meta, to the one failure handler', async () => {
    const failures: Array<{ message: string; meta: unknown }> = [];
    const queryClient = createQueryClient({
      onMutationFailure: (error, meta) => failures.push({ message: error.message, meta }),
    });
    const meta = { errorToast: { description: 'Không thể tạo session' } };
    const mutation = queryClient.getMutationCache().build(queryClient, {
      mutationFn: () => Promise.reject(new Error('500: boom')),
      meta,
    });
    await expect(mutation.execute(undefined)).rejects.toThrow('500: boom');
    expect(failures).toEqual([{ message: '500: boom', meta }]);
  });
});
