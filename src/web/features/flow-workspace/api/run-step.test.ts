// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { executionQueryKey } from '@/lib/execution-query';
import { ExecutionSocket } from '@/lib/execution-socket';
import type { Execution } from '@/lib/execution-stream';
import { aStep, executionStarted, fold, ranStep } from '../../../../domain/execution/testing';
import type { ExecutionEvent } from '../../../../domain/execution/types';
import { runStepOfExecution } from './run-step';

const step = aStep(1, { name: 'Dàn ý' });
const started = executionStarted([step], ['cache-1']);
const ran = ranStep(step, 'run-1', 'cache-1', 'result-1', 'Mở bài, thân bài, kết bài');

const executionOf = (events: ExecutionEvent[]): Execution => ({ ...fold(events), version: events.length });
const before = executionOf([started]);
const after = executionOf([started, ...ran]);
const runResults = after.results;

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

/** The short answer of the run: its results and the version the execution is at after it. */
const summary = () =>
  json({
    executionId: after.id,
    version: after.version,
    status: after.status,
    currentStep: after.currentStep,
    results: runResults,
  });

const fetchMock = vi.fn<typeof fetch>();
const runUrl = `/api/executions/${before.id}/steps/${step.id}/execute`;

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function cachedAt(execution: Execution) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(executionQueryKey(execution.id), execution);
  return queryClient;
}

describe('runStepOfExecution', () => {
  it('asks for the short answer, and takes the execution from its pushed events, reading nothing more', async () => {
    vi.spyOn(ExecutionSocket.prototype, 'delivering').mockReturnValue(true);
    fetchMock.mockResolvedValue(summary());
    const queryClient = cachedAt(before);

    const running = runStepOfExecution(queryClient, before.id, step.id, 'Ngắn hơn');
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe(runUrl);
    expect(new Headers(init?.headers).get('prefer')).toBe('return=minimal');

    // The run's events arrive on the socket after its answer: the call, having read it, waits for them.
    let settled = false;
    void running.then(() => (settled = true));
    await vi.waitFor(() => expect(queryClient.getQueryCache().hasListeners()).toBe(true));
    expect(settled).toBe(false);
    queryClient.setQueryData(executionQueryKey(before.id), after);

    const answer = await running;
    expect(answer.execution).toEqual(after);
    expect(queryClient.getQueryCache().hasListeners()).toBe(false);
    expect(answer.results).toEqual(runResults);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('answers at once when the pushed events got there before the answer', async () => {
    vi.spyOn(ExecutionSocket.prototype, 'delivering').mockReturnValue(true);
    fetchMock.mockResolvedValue(summary());
    const answer = await runStepOfExecution(cachedAt(after), before.id, step.id, '');
    expect(answer.execution).toEqual(after);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('with no socket delivering the events, reads the execution at once', async () => {
    vi.spyOn(ExecutionSocket.prototype, 'delivering').mockReturnValue(false);
    fetchMock.mockImplementation(async (input) => (String(input) === runUrl ? summary() : json(after)));
    const queryClient = cachedAt(before);

    const answer = await runStepOfExecution(queryClient, before.id, step.id, '');
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual([
      runUrl,
      `/api/executions/${before.id}`,
    ]);
    expect(answer.execution).toEqual(after);
    expect(queryClient.getQueryData<Execution>(executionQueryKey(before.id))?.version).toBe(after.version);
  });

  it('keeps the whole execution of an answer that carries it', async () => {
    fetchMock.mockResolvedValue(json({ execution: after, results: runResults }));
    const queryClient = cachedAt(before);
    const answer = await runStepOfExecution(queryClient, before.id, step.id, '');
    expect(answer.execution).toEqual(after);
    expect(queryClient.getQueryData<Execution>(executionQueryKey(before.id))).toEqual(after);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
