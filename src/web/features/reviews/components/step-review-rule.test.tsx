// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flowQueryOptions } from '@/features/flow-workspace/api/get-flow';
import { aFlowStep } from '../../../../domain/execution/testing';
import { StepReviewRule } from './step-review-rule';

const step = aFlowStep(1, { id: '11111111-1111-4111-8111-111111111111', flowId: 'flow-1', name: 'Draft' });

function renderIn(workspaceId: string | null) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(flowQueryOptions('flow-1').queryKey, {
    id: 'flow-1',
    userId: 'user-1',
    workspaceId,
    name: 'Blog',
    description: 'Posts',
    status: 'draft',
    isTemplate: false,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    version: 3,
  });
  return render(
    <QueryClientProvider client={client}>
      <StepReviewRule step={step} onChanged={() => {}} />
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

describe("a step's review rule in edit mode", { timeout: 20_000 }, () => {
  it('is not offered on a flow outside a workspace', () => {
    renderIn(null);
    expect(screen.queryByTestId('step-review-rule')).toBeNull();
  });

  it('saves a role as who approves, on the flow version the tab read', async () => {
    const user = userEvent.setup();
    const review = { by: 'role', role: 'reviewer', approvals: 1, selfApproval: false };
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ ...step, review }), {
        status: 200,
        headers: { 'content-type': 'application/json', etag: '"4"' },
      }),
    );
    renderIn('workspace-1');
    await user.selectOptions(screen.getByTestId('step-review-by'), 'reviewer');
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [input, init] = fetchMock.mock.calls[0]!;
    const request =
      input instanceof Request ? input : new Request(new URL(String(input), 'http://app'), init);
    expect(request.method).toBe('PUT');
    expect(request.url).toMatch(new RegExp(`/api/steps/${step.id}$`));
    expect(request.headers.get('if-match')).toBe('"3"');
    expect(await request.json()).toEqual({ review: { by: 'role', role: 'reviewer', approvals: 1 } });
  });
});
