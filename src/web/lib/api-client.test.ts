import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  answerOf,
  apiErrorOf,
  client,
  createQueryClient,
  newRequestKey,
  RESEND_AFTER_MS,
} from './api-client';
import { serverRefusals } from './strings';

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

  it('words the used-up free allowance itself, in Vietnamese only, whatever the server says', () => {
    const error = apiErrorOf(
      429,
      'Too Many Requests',
      JSON.stringify({
        code: 'free_allowance_used_up',
        message: 'Bạn đã dùng hết 15 steps miễn phí. (The free allowance of 15 steps is used up.)',
      }),
    );
    expect(error.message).toBe(`429: ${serverRefusals.free_allowance_used_up}`);
    expect(error.message).not.toContain('free allowance');
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

/** The calls made, as fetch saw them: the path, and the init with its headers readable. */
const sent = (fetchMock: { mock: { calls: unknown[][] } }) =>
  (fetchMock.mock.calls as unknown as [string, RequestInit][]).map(([path, init]) => ({
    path,
    init,
    headers: new Headers(init.headers),
  }));

describe('the typed client', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the documented path with its params, cookies, and a JSON body with its content type only when there is one', async () => {
    const fetchMock = vi.fn(async () => Response.json({ id: 'f1' }, { status: 201 }));
    vi.stubGlobal('fetch', fetchMock);
    await client.POST('/api/flows', { body: { name: 'A', description: '' } });
    await client.GET('/api/master-mode/sessions', { params: { query: { flowId: 'f 1' } } });
    const [withBody, withoutBody] = sent(fetchMock);
    expect(withBody?.path).toBe('/api/flows');
    expect(withBody?.init).toMatchObject({ method: 'POST', credentials: 'include' });
    expect(withBody?.headers.get('Content-Type')).toBe('application/json');
    expect(JSON.parse(String(withBody?.init.body))).toEqual({ name: 'A', description: '' });
    expect(withoutBody?.path).toBe('/api/master-mode/sessions?flowId=f%201');
    expect(withoutBody?.init).toMatchObject({ method: 'GET', credentials: 'include' });
    expect(withoutBody?.headers.has('Content-Type')).toBe(false);
    expect(withoutBody?.init.body).toBeUndefined();
  });

  it('gives every write an Idempotency-Key of its own (one per call), and reads none', async () => {
    const fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    const path = { params: { path: { id: 'e1', stepId: 's1' } }, body: { userInput: '' } };
    await client.POST('/api/executions/{id}/steps/{stepId}/execute', path);
    await client.POST('/api/executions/{id}/steps/{stepId}/execute', path);
    await client.PUT('/api/flows/{id}', { params: { path: { id: 'f1' } }, body: { name: 'B' } });
    await client.PATCH('/api/flows/{flowId}/context', {
      params: { path: { flowId: 'f1' } },
      body: { userNotes: 'n' },
    });
    await client.DELETE('/api/flows/{id}', { params: { path: { id: 'f1' } } });
    await client.GET('/api/flows');
    const keys = sent(fetchMock).map(({ headers }) => headers.get('Idempotency-Key'));
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    for (const key of keys.slice(1, 5)) expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys.slice(0, 5)).size).toBe(5);
    expect(keys[5]).toBeNull();
  });

  it('sends a write whose connection failed again with the same key, and a call sent again with its key', async () => {
    vi.useFakeTimers();
    try {
      const fetchMock = vi
        .fn()
        .mockRejectedValueOnce(new TypeError('Failed to fetch'))
        .mockImplementation(async () => Response.json({ id: 'r1' }, { status: 201 }));
      vi.stubGlobal('fetch', fetchMock);
      const body = { name: 'A', description: '' };
      const call = client.POST('/api/flows', { body });
      await vi.runAllTimersAsync();
      expect(answerOf(await call)).toEqual({ id: 'r1' });
      await client.POST('/api/flows', { params: { header: { 'idempotency-key': 'same-action' } }, body });
      const calls = sent(fetchMock);
      expect(calls).toHaveLength(3);
      expect(calls[1]?.headers.get('Idempotency-Key')).toBe(calls[0]?.headers.get('Idempotency-Key'));
      expect(calls[1]?.init.body).toBe(calls[0]?.init.body);
      expect(calls[2]?.headers.get('Idempotency-Key')).toBe('same-action');
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives up on a write after its last resend, and never sends a read again', async () => {
    vi.useFakeTimers();
    try {
      const fetchMock = vi.fn().mockRejectedValue(new TypeError('Failed to fetch'));
      vi.stubGlobal('fetch', fetchMock);
      const write = client.DELETE('/api/flows/{id}', { params: { path: { id: 'f1' } } });
      const failed = expect(write).rejects.toThrow('Failed to fetch');
      await vi.runAllTimersAsync();
      await failed;
      expect(fetchMock).toHaveBeenCalledTimes(1 + RESEND_AFTER_MS.length);
      await expect(client.GET('/api/flows')).rejects.toThrow('Failed to fetch');
      expect(fetchMock).toHaveBeenCalledTimes(2 + RESEND_AFTER_MS.length);
    } finally {
      vi.useRealTimers();
    }
  });

  it('throws a non-OK answer as an ApiError worded from its problem body', async () => {
    vi.stubGlobal('fetch', async () =>
      Response.json({ message: 'Flow không tồn tại', retryable: false }, { status: 404 }),
    );
    const call = client.GET('/api/flows/{id}', { params: { path: { id: 'f1' } } });
    await expect(call).rejects.toEqual(new ApiError(404, '404: Flow không tồn tại'));
    await expect(call).rejects.toBeInstanceOf(ApiError);
  });

  it("passes a condition header along, and lets the caller read the answer's headers (ETag)", async () => {
    const fetchMock = vi.fn(async () => Response.json({ id: 'f1' }, { headers: { ETag: '"8"' } }));
    vi.stubGlobal('fetch', fetchMock);
    const answered = await client.PUT('/api/flows/{id}', {
      params: { path: { id: 'f1' } },
      body: { name: 'B' },
      headers: { 'If-Match': '"7"' },
    });
    expect(sent(fetchMock)[0]?.headers.get('If-Match')).toBe('"7"');
    expect(answered.response.headers.get('ETag')).toBe('"8"');
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
    expect(answerOf(await client.DELETE('/api/flows/{id}', { params: { path: { id: 'f1' } } }))).toBeNull();
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
