// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { userQueryOptions } from '@/features/auth';
import { membersQueryOptions } from '@/features/workspaces';
import type { Execution } from '@/lib/execution-stream';
import { workspacesQueryOptions } from '@/lib/workspace-roles';
import {
  aStep,
  executionStarted,
  fold,
  ranStep,
  reviewRequested,
} from '../../../../domain/execution/testing';
import type { ExecutionEvent, Review } from '../../../../domain/execution/types';
import { reviewPanel } from '../strings';
import { StepReviewPanel } from './step-review-panel';

const draft = aStep(1, { name: 'Draft' });
const started = executionStarted([draft], ['cache-1']);
const requested = (fields: Partial<Extract<ExecutionEvent, { type: 'ReviewRequested' }>['data']>) =>
  reviewRequested('review-1', ['result-1'], { stepId: draft.id, runId: 'run-1', ...fields });

/** The execution with a review of step 1's result, and what happened to the review after. */
function executionWith(request: ExecutionEvent, ...after: ExecutionEvent[]): Execution {
  const events: ExecutionEvent[] = [
    started.type === 'ExecutionStarted'
      ? { ...started, data: { ...started.data, workspaceId: 'workspace-1' } }
      : started,
    ...ranStep(draft, 'run-1', 'cache-1', 'result-1', 'A first draft'),
    request,
    ...after,
  ];
  return { ...fold(events), version: events.length };
}

const byRole = executionWith(requested({}));

const members = [
  { userId: 'user-1', name: 'An Nguyễn', email: 'an@example.com', role: 'editor' },
  { userId: 'ana', name: 'Ana Lê', email: 'ana@example.com', role: 'reviewer' },
  { userId: 'binh', name: 'Bình Trần', email: 'binh@example.com', role: 'reviewer' },
] as const;

/** The panel as `userId`, in `role` of the execution's workspace. */
function renderAs(userId: string, role: 'reviewer' | 'editor', execution: Execution = byRole) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(userQueryOptions.queryKey, { id: userId, email: `${userId}@example.com` } as never);
  client.setQueryData(workspacesQueryOptions.queryKey, [{ id: 'workspace-1', name: 'Team', role }]);
  client.setQueryData(membersQueryOptions('workspace-1').queryKey, [...members]);
  return render(
    <QueryClientProvider client={client}>
      <StepReviewPanel stepId={draft.id} execution={execution} />
    </QueryClientProvider>,
  );
}

const fetchMock = vi.fn<typeof fetch>();
/** What the review's decision answers; the members list answers the members. */
let decided: Review | null = null;
const requestOf = (input: Parameters<typeof fetch>[0], init?: RequestInit) =>
  input instanceof Request ? input : new Request(new URL(String(input), 'http://app'), init);
const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
beforeEach(() => {
  decided = null;
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (input, init) =>
    requestOf(input, init).url.endsWith('/members') ? json(members) : json(decided),
  );
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The one decision the panel sent. */
async function sentRequest(): Promise<Request> {
  const decisions = () =>
    fetchMock.mock.calls
      .map(([input, init]) => requestOf(input, init))
      .filter((r) => r.url.includes('/api/reviews/'));
  await vi.waitFor(() => expect(decisions()).toHaveLength(1));
  return decisions()[0]!;
}

const answering = (review: Review) => {
  decided = review;
};

describe("the run screen's review panel", { timeout: 20_000 }, () => {
  it('tells the runner who the step waits for, without decision buttons', () => {
    renderAs('user-1', 'editor');
    expect(screen.getByTestId(`step-waiting-review-${draft.id}`).textContent).toContain(
      reviewPanel.waitingFor(reviewPanel.role('reviewer')),
    );
    expect(screen.queryByTestId('review-approve-review-1')).toBeNull();
  });

  it("names the people asked, and shows the runner's note and who approved so far with their comments", () => {
    const execution = executionWith(
      requested({
        by: 'members',
        role: null,
        userIds: ['ana', 'binh'],
        approvals: 2,
        note: 'Xem kỹ phần số liệu',
      }),
      {
        type: 'ReviewApproved',
        data: {
          reviewId: 'review-1',
          userId: 'ana',
          role: 'reviewer',
          comment: 'Ổn rồi',
          at: '2025-01-02T04:00:00.000Z',
        },
      },
    );
    renderAs('user-1', 'editor', execution);
    const panel = screen.getByTestId(`step-waiting-review-${draft.id}`);
    expect(panel.textContent).toContain(reviewPanel.waitingFor('Ana Lê và Bình Trần'));
    expect(screen.getByTestId('review-note-review-1').textContent).toContain('Xem kỹ phần số liệu');
    expect(screen.getByTestId('review-approved-so-far-review-1').textContent).toBe(
      reviewPanel.approvedSoFar('Ana Lê'),
    );
    expect(screen.getByTestId('review-comments-review-1').textContent).toContain('Ổn rồi');
  });

  it('says who approved, with their comments, and who rejected and why', () => {
    const approved = executionWith(requested({}), {
      type: 'ReviewApproved',
      data: {
        reviewId: 'review-1',
        userId: 'binh',
        role: 'reviewer',
        comment: 'Tốt',
        at: '2025-01-02T04:00:00.000Z',
      },
    });
    renderAs('user-1', 'editor', approved);
    const shown = screen.getByTestId(`step-review-approved-${draft.id}`).textContent;
    expect(shown).toContain(reviewPanel.approvedBy('Bình Trần'));
    expect(shown).toContain('Tốt');
    cleanup();

    const rejected = executionWith(requested({}), {
      type: 'ReviewRejected',
      data: {
        reviewId: 'review-1',
        userId: 'ana',
        role: 'reviewer',
        reason: 'Thiếu nguồn.',
        at: '2025-01-02T04:00:00.000Z',
      },
    });
    renderAs('user-1', 'editor', rejected);
    expect(screen.getByTestId(`step-review-rejected-${draft.id}`).textContent).toBe(
      reviewPanel.rejected('Ana Lê', 'Thiếu nguồn.'),
    );
  });

  it('shows who edited a result under review and when, with the model text against the edited one', () => {
    const execution = byRole;
    const reviewedId = execution.reviews[0]!.resultIds[0]!;
    const withEdit: Execution = {
      ...execution,
      results: execution.results.map((result) =>
        result.id === reviewedId
          ? {
              ...result,
              result: 'A better draft',
              edited: { modelText: 'A first draft', by: 'user-1', at: '2025-01-02T03:30:00.000Z' },
            }
          : result,
      ),
    };
    renderAs('ana', 'reviewer', withEdit);
    const edits = screen.getByTestId('review-edits-review-1');
    expect(edits.textContent).toContain('Đã sửa bởi An Nguyễn lúc');
    expect([...edits.querySelectorAll('[data-kind="removed"]')].map((part) => part.textContent)).toEqual([
      'first',
    ]);
    expect([...edits.querySelectorAll('[data-kind="added"]')].map((part) => part.textContent)).toEqual([
      'better',
    ]);
  });

  it('shows no edits when none of its results was edited', () => {
    renderAs('ana', 'reviewer');
    expect(screen.queryByTestId('review-edits-review-1')).toBeNull();
  });

  it('approves in a dialog, with the comment typed there', async () => {
    const user = userEvent.setup();
    answering({ ...byRole.reviews[0]!, status: 'approved' });
    renderAs('ana', 'reviewer');
    await user.click(screen.getByTestId('review-approve-review-1'));
    await user.type(await screen.findByTestId('review-comment-review-1'), '  Rõ ràng, cảm ơn  ');
    await user.click(screen.getByTestId('review-send-approve-review-1'));
    const request = await sentRequest();
    expect(request.url).toMatch(/\/api\/reviews\/review-1\/approve$/);
    expect(await request.json()).toEqual({ comment: 'Rõ ràng, cảm ơn' });
    await vi.waitFor(() => expect(screen.queryByTestId('review-approve-dialog-review-1')).toBeNull());
  });

  it('approves without a comment, and refuses one over the limit', async () => {
    const user = userEvent.setup();
    answering({ ...byRole.reviews[0]!, status: 'approved' });
    renderAs('ana', 'reviewer');
    await user.click(screen.getByTestId('review-approve-review-1'));
    const comment = await screen.findByTestId('review-comment-review-1');
    await user.click(comment);
    await user.paste('x'.repeat(2001));
    await vi.waitFor(() =>
      expect(screen.getByTestId('review-send-approve-review-1')).toHaveProperty('disabled', true),
    );
    expect(screen.getByRole('alert').textContent).toBe(reviewPanel.approveCommentTooLong(2000));
    await user.clear(comment);
    await vi.waitFor(() =>
      expect(screen.getByTestId('review-send-approve-review-1')).toHaveProperty('disabled', false),
    );
    await user.click(screen.getByTestId('review-send-approve-review-1'));
    expect(await (await sentRequest()).json()).toEqual({});
  });

  it('lets a reviewer reject with a reason, sent to the review', async () => {
    const user = userEvent.setup();
    answering({ ...byRole.reviews[0]!, status: 'rejected' });
    renderAs('ana', 'reviewer');
    await user.click(screen.getByTestId('review-reject-review-1'));
    expect(screen.getByTestId('review-send-reject-review-1')).toHaveProperty('disabled', true);
    await user.type(screen.getByTestId('review-reason-review-1'), 'Too long');
    await user.click(screen.getByTestId('review-send-reject-review-1'));
    const request = await sentRequest();
    expect(request.url).toMatch(/\/api\/reviews\/review-1\/reject$/);
    expect(request.method).toBe('POST');
    expect(await request.json()).toEqual({ reason: 'Too long' });
  });
});
