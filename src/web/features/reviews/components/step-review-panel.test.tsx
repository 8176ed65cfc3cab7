// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { userQueryOptions } from '@/features/auth/api/get-user';
import type { Execution } from '@/lib/execution-stream';
import { workspacesQueryOptions } from '@/lib/workspace-roles';
import { aStep, executionStarted, fold, ranStep } from '../../../../domain/execution/testing';
import type { ExecutionEvent } from '../../../../domain/execution/types';
import { reviewPanel } from '../strings';
import { StepReviewPanel } from './step-review-panel';

const draft = aStep(1, { name: 'Draft' });
const started = executionStarted([draft], ['cache-1']);
const events: ExecutionEvent[] = [
  started.type === 'ExecutionStarted'
    ? { ...started, data: { ...started.data, workspaceId: 'workspace-1' } }
    : started,
  ...ranStep(draft, 'run-1', 'cache-1', 'result-1', 'A first draft'),
  {
    type: 'ReviewRequested',
    data: {
      reviewId: 'review-1',
      stepId: draft.id,
      runId: 'run-1',
      resultIds: ['result-1'],
      by: 'role',
      userIds: [],
      role: 'reviewer',
      approvals: 1,
      selfApproval: false,
      requestedBy: 'user-1',
      dueAt: null,
      onDue: null,
      note: null,
      at: '2025-01-02T03:04:05.000Z',
    },
  },
];
const execution: Execution = { ...fold(events), version: events.length };

/** The panel as `userId`, in `role` of the execution's workspace. */
function renderAs(userId: string, role: 'reviewer' | 'editor') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(userQueryOptions.queryKey, { id: userId, email: `${userId}@example.com` } as never);
  client.setQueryData(workspacesQueryOptions.queryKey, [{ id: 'workspace-1', name: 'Team', role }]);
  return render(
    <QueryClientProvider client={client}>
      <StepReviewPanel stepId={draft.id} execution={execution} />
    </QueryClientProvider>,
  );
}

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the run screen's review panel", { timeout: 20_000 }, () => {
  it('tells the runner who the step waits for, without decision buttons', () => {
    renderAs('user-1', 'editor');
    expect(screen.getByTestId(`step-waiting-review-${draft.id}`).textContent).toContain(
      reviewPanel.waitingFor(reviewPanel.role('reviewer')),
    );
    expect(screen.queryByTestId('review-approve-review-1')).toBeNull();
  });

  it('lets a reviewer reject with a reason, sent to the review', async () => {
    const user = userEvent.setup();
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ ...execution.reviews[0], status: 'rejected' }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
    );
    renderAs('ana', 'reviewer');
    await user.click(screen.getByTestId('review-reject-review-1'));
    expect(screen.getByTestId('review-send-reject-review-1')).toHaveProperty('disabled', true);
    await user.type(screen.getByTestId('review-reason-review-1'), 'Too long');
    await user.click(screen.getByTestId('review-send-reject-review-1'));
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [input, init] = fetchMock.mock.calls[0]!;
    const request =
      input instanceof Request ? input : new Request(new URL(String(input), 'http://app'), init);
    expect(request.url).toMatch(/\/api\/reviews\/review-1\/reject$/);
    expect(request.method).toBe('POST');
    expect(await request.json()).toEqual({ reason: 'Too long' });
  });
});
