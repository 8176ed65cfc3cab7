// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { userQueryOptions } from '@/features/auth';
import { membersQueryOptions } from '@/features/workspaces';
import type { Execution } from '@/lib/execution-stream';
import {
  aFlowStep,
  aStep,
  executionStarted,
  fold,
  ranStep,
  reviewRequested,
} from '../../../../domain/execution/testing';
import type { ExecutionEvent } from '../../../../domain/execution/types';
import { RequestReviewButton } from './request-review-dialog';

const draft = aStep(1, { name: 'Draft' });
const step = aFlowStep(1, { name: 'Draft' });
const started = executionStarted([draft], ['cache-1']);
const ran: ExecutionEvent[] = [
  started.type === 'ExecutionStarted'
    ? { ...started, data: { ...started.data, workspaceId: 'workspace-1' } }
    : started,
  ...ranStep(draft, 'run-1', 'cache-1', 'result-1', 'A first draft'),
];
const requested = reviewRequested('review-1', ['result-1'], { stepId: draft.id, runId: 'run-1' });
const executionOf = (events: ExecutionEvent[]): Execution => ({ ...fold(events), version: events.length });

const members = [
  { userId: 'user-1', name: 'An Nguyễn', email: 'an@example.com', role: 'owner' },
  { userId: 'binh', name: 'Bình Trần', email: 'binh@example.com', role: 'reviewer' },
  { userId: 'chi', name: 'Chi Phạm', email: 'chi@example.com', role: 'editor' },
  { userId: 'dung', name: 'Dũng Võ', email: 'dung@example.com', role: 'auditor' },
] as const;

/** The button as the runner, user-1, an owner of the execution's workspace. */
function renderFor(execution: Execution) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(userQueryOptions.queryKey, { id: 'user-1', email: 'an@example.com' } as never);
  client.setQueryData(membersQueryOptions('workspace-1').queryKey, [...members]);
  return render(
    <QueryClientProvider client={client}>
      <RequestReviewButton step={step} execution={execution} />
    </QueryClientProvider>,
  );
}

const toRequest = (input: Parameters<typeof fetch>[0], init?: RequestInit) =>
  input instanceof Request ? input : new Request(new URL(String(input), 'http://app'), init);

/** The review requests sent so far. */
const posts = () => fetchMock.mock.calls.filter(([input, init]) => toRequest(input, init).method === 'POST');

const json = (body: unknown, status = 200, type = 'application/json') =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });

/** A datetime-local value `days` from now, in the browser's local time. */
function localInDays(days: number) {
  const at = new Date(Date.now() + days * 86_400_000);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

const fetchMock = vi.fn<typeof fetch>();
let answer: () => Response;
beforeEach(() => {
  fetchMock.mockReset();
  answer = () => json({ id: 'review-2' }, 201);
  fetchMock.mockImplementation(async (input, init) =>
    toRequest(input, init).url.endsWith('/members') ? json([...members]) : answer(),
  );
  vi.stubGlobal('fetch', fetchMock);
  // A checkbox in a form measures itself; jsdom has no ResizeObserver.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the runner's request for review on the run screen", { timeout: 20_000 }, () => {
  it('is offered only for results not approved nor waiting for review, in a workspace', () => {
    renderFor(executionOf([...ran, requested]));
    expect(screen.queryByTestId('request-review-1')).toBeNull();
    cleanup();
    const own = executionOf(ran);
    renderFor({ ...own, workspaceId: null });
    expect(screen.queryByTestId('request-review-1')).toBeNull();
    cleanup();
    renderFor(own);
    expect(screen.getByTestId('request-review-1').textContent).toContain('Yêu cầu review');
    cleanup();
    // A text a review rejected is asked again by its edit or a new run, never by a request.
    const rejected: ExecutionEvent = {
      type: 'ReviewRejected',
      data: {
        reviewId: 'review-1',
        userId: 'binh',
        role: 'reviewer',
        reason: 'No',
        at: '2025-01-02T04:00:00Z',
      },
    };
    renderFor(executionOf([...ran, requested, rejected]));
    expect(screen.queryByTestId('request-review-1')).toBeNull();
  });

  it('names members who may review (not the runner, not an auditor), with a due time and a note', async () => {
    const user = userEvent.setup();
    renderFor(executionOf(ran));
    await user.click(screen.getByTestId('request-review-1'));
    const dialog = await screen.findByTestId('request-review-dialog');
    expect(screen.getByRole('dialog', { name: 'Yêu cầu review' })).toBe(dialog);
    await user.selectOptions(screen.getByTestId('request-review-by'), 'members');
    const list = screen.getByTestId('request-review-members');
    expect(list.textContent).toContain('Bình Trần');
    expect(list.textContent).toContain('Chi Phạm');
    expect(list.textContent).not.toContain('An Nguyễn');
    expect(list.textContent).not.toContain('Dũng Võ');
    // Nobody picked: nothing to send.
    expect(screen.getByTestId('request-review-send')).toHaveProperty('disabled', true);

    await user.click(screen.getByLabelText(/Bình Trần/));
    await user.click(screen.getByLabelText(/Chi Phạm/));
    expect(screen.getByLabelText('Số người cần approve').getAttribute('max')).toBe('2');
    await user.clear(screen.getByTestId('request-review-approvals'));
    await user.type(screen.getByTestId('request-review-approvals'), '2');
    expect(screen.getByLabelText('Khi quá hạn')).toHaveProperty('disabled', true);
    const due = localInDays(2);
    fireEvent.change(screen.getByLabelText('Hạn duyệt'), { target: { value: due } });
    await user.selectOptions(screen.getByLabelText('Khi quá hạn'), 'escalate');
    await user.type(screen.getByLabelText('Ghi chú cho người duyệt'), 'Xem phần mở đầu');
    await user.click(screen.getByTestId('request-review-send'));

    await vi.waitFor(() => expect(posts()).toHaveLength(1));
    const [input, init] = posts()[0]!;
    const request = toRequest(input, init);
    expect(request.url).toMatch(
      new RegExp(`/api/executions/${executionOf(ran).id}/steps/${draft.id}/review-requests$`),
    );
    expect(await request.json()).toEqual({
      userIds: ['binh', 'chi'],
      approvals: 2,
      dueAt: new Date(due).toISOString(),
      onDue: 'escalate',
      note: 'Xem phần mở đầu',
    });
    // Sent: the dialog closes; the panel shows the request as the pushed event brings it.
    await vi.waitFor(() => expect(screen.queryByTestId('request-review-dialog')).toBeNull());
  });

  it("asks a role and shows the server's refusal in the dialog", async () => {
    const user = userEvent.setup();
    const refusal = 'review: the editor role has 0 other members, fewer than the 1 approvals asked for';
    answer = () =>
      json({ status: 400, code: 'rule_violated', message: refusal }, 400, 'application/problem+json');
    renderFor(executionOf(ran));
    await user.click(screen.getByTestId('request-review-1'));
    await screen.findByTestId('request-review-dialog');
    await user.selectOptions(screen.getByTestId('request-review-by'), 'editor');
    await user.click(screen.getByTestId('request-review-send'));
    const error = await screen.findByTestId('request-review-error');
    expect(error.getAttribute('role')).toBe('alert');
    expect(error.textContent).toContain(refusal);
    const [input, init] = posts()[0]!;
    expect(await toRequest(input, init).json()).toEqual({ role: 'editor', approvals: 1 });
    // Still open, to change and send again; the refusal goes once the request changes.
    expect(screen.getByTestId('request-review-dialog')).toBeTruthy();
    await user.selectOptions(screen.getByTestId('request-review-by'), 'reviewer');
    expect(screen.queryByTestId('request-review-error')).toBeNull();
  });
});
