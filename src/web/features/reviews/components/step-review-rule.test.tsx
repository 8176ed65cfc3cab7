// @vitest-environment jsdom
import { QueryClient, QueryClientProvider, useMutation } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type User, userQueryOptions } from '@/features/auth';
import { membersQueryOptions } from '@/features/workspaces';
import { flowQueryOptions } from '@/lib/flow-query';
import type { Step } from '@/lib/steps-query';
import { type WorkspaceRole, workspacesQueryOptions } from '@/lib/workspace-roles';
import { aFlowStep } from '../../../../domain/execution/testing';
import { StepReviewRule, type UseRuleSave } from './step-review-rule';

/** The save the flow's screen hands in, as the API takes it: a PUT of the step's changes. */
const useSave: UseRuleSave = () => {
  const put = useMutation({
    mutationFn: ({ stepId, changes }: { stepId: string; changes: unknown }) =>
      fetch(`/api/steps/${stepId}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(changes),
      }),
  });
  return {
    isPending: put.isPending,
    mutate: (variables, options) => put.mutate(variables, { onSuccess: () => options?.onSuccess?.() }),
  };
};

const step = aFlowStep(1, { id: '11111111-1111-4111-8111-111111111111', flowId: 'flow-1', name: 'Draft' });

const ANA = '22222222-2222-4222-8222-222222222222';
const BINH = '33333333-3333-4333-8333-333333333333';
const CHI = '44444444-4444-4444-8444-444444444444';
const DUNG = '55555555-5555-4555-8555-555555555555';
const members = [
  { userId: ANA, name: 'Ana Lê', email: 'ana@example.com', role: 'owner' },
  { userId: BINH, name: 'Bình Trần', email: 'binh@example.com', role: 'reviewer' },
  { userId: CHI, name: 'Chi Phạm', email: 'chi@example.com', role: 'editor' },
  { userId: DUNG, name: 'Dũng Võ', email: 'dung@example.com', role: 'auditor' },
] as const;

/** The step's rule as `role` in the flow's workspace sees it; the person editing is Ana. */
function renderIn(workspaceId: string | null, shown: Step = step, role: WorkspaceRole = 'owner') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(userQueryOptions.queryKey, {
    id: ANA,
    email: 'ana@example.com',
    firstName: 'Ana',
    lastName: 'Lê',
  } as User);
  if (workspaceId)
    client.setQueryData(workspacesQueryOptions.queryKey, [{ id: workspaceId, name: 'Team', role }]);
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
  if (workspaceId) client.setQueryData(membersQueryOptions(workspaceId).queryKey, [...members]);
  return render(
    <QueryClientProvider client={client}>
      <StepReviewRule step={shown} onChanged={() => {}} useSave={useSave} />
    </QueryClientProvider>,
  );
}

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  fetchMock.mockReset();
  // The members list is read again on mount; each save answers the step as saved.
  fetchMock.mockImplementation(async (input, init) => {
    const request = toRequest(input, init);
    const body = request.url.endsWith('/members') ? [...members] : step;
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json', etag: '"4"' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
});

const toRequest = (input: Parameters<typeof fetch>[0], init?: RequestInit) =>
  input instanceof Request ? input : new Request(new URL(String(input), 'http://app'), init);

/** The saves sent so far. */
const saves = () => fetchMock.mock.calls.filter(([input, init]) => toRequest(input, init).method === 'PUT');

/** The review rules saved so far, in order. */
async function sentRules() {
  const rules: unknown[] = [];
  for (const [input, init] of saves())
    rules.push(((await toRequest(input, init).json()) as { review: unknown }).review);
  return rules;
}
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("a step's review rule in edit mode", { timeout: 20_000 }, () => {
  it('is not offered on a flow outside a workspace', () => {
    renderIn(null);
    expect(screen.queryByTestId('step-review-rule')).toBeNull();
  });

  // On which flow version it is written is the save's (the flow screen's useUpdateStep, tested with it).
  it('saves a role as who approves with Save, once', async () => {
    const user = userEvent.setup();
    const review = { by: 'role', role: 'reviewer', approvals: 1, selfApproval: false };
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ ...step, review }), {
        status: 200,
        headers: { 'content-type': 'application/json', etag: '"4"' },
      }),
    );
    renderIn('workspace-1');
    expect(screen.queryByTestId('step-review-save')).toBeNull();
    await user.selectOptions(screen.getByTestId('step-review-by'), 'reviewer');
    await user.clear(screen.getByTestId('step-review-approvals'));
    await user.type(screen.getByTestId('step-review-approvals'), '2');
    await user.clear(screen.getByTestId('step-review-approvals'));
    await user.type(screen.getByTestId('step-review-approvals'), '1');
    // Choosing and typing saves nothing: Save does.
    expect(saves()).toHaveLength(0);
    await user.click(screen.getByTestId('step-review-save'));
    await vi.waitFor(() => expect(saves()).toHaveLength(1));
    const [input, init] = saves()[0]!;
    const request = toRequest(input, init);
    expect(request.url).toMatch(new RegExp(`/api/steps/${step.id}$`));
    expect(await request.json()).toEqual({ review: { by: 'role', role: 'reviewer', approvals: 1 } });
  });

  it('picks named members among those who may review, never the person editing, and saves them in one save', async () => {
    const user = userEvent.setup();
    renderIn('workspace-1');
    await user.selectOptions(screen.getByTestId('step-review-by'), 'members');
    const list = screen.getByTestId('step-review-members');
    expect(list.textContent).toContain('Bình Trần');
    expect(list.textContent).toContain('Chi Phạm');
    // The person editing (Ana, an owner) is not offered: someone else must meet the rule.
    expect(list.textContent).not.toContain('Ana Lê');
    expect(screen.queryByTestId(`step-review-member-${ANA}`)).toBeNull();
    // An auditor cannot review: not offered.
    expect(list.textContent).not.toContain('Dũng Võ');
    expect(screen.queryByTestId(`step-review-member-${DUNG}`)).toBeNull();
    // Each checkbox is named by its label.
    expect(screen.getByRole('checkbox', { name: /Bình Trần/ })).toBe(
      screen.getByTestId(`step-review-member-${BINH}`),
    );
    // Nobody picked yet: nothing can be saved.
    expect(screen.getByTestId('step-review-save')).toHaveProperty('disabled', true);
    await user.click(screen.getByLabelText(/Bình Trần/));
    await user.click(screen.getByLabelText(/Chi Phạm/));
    await user.clear(screen.getByTestId('step-review-approvals'));
    await user.type(screen.getByTestId('step-review-approvals'), '2');
    // Each tick is not a save: the rule is saved once, as one version.
    expect(saves()).toHaveLength(0);
    await user.click(screen.getByTestId('step-review-save'));
    await vi.waitFor(() => expect(saves()).toHaveLength(1));
    expect(await sentRules()).toEqual([{ by: 'members', userIds: [BINH, CHI], approvals: 2 }]);
  });

  it('bounds approvals by the people picked and keeps the due time when one is taken off', async () => {
    const user = userEvent.setup();
    const review = {
      by: 'members' as const,
      userIds: [BINH, CHI],
      approvals: 2,
      selfApproval: false,
      dueInHours: 24,
      onDue: 'escalate' as const,
    };
    renderIn('workspace-1', { ...step, review });
    expect(screen.getByTestId('step-review-approvals').getAttribute('max')).toBe('2');
    expect((screen.getByTestId('step-review-due-hours') as HTMLInputElement).value).toBe('24');
    expect((screen.getByTestId('step-review-on-due') as HTMLSelectElement).value).toBe('escalate');
    await user.click(screen.getByTestId(`step-review-member-${CHI}`));
    expect((screen.getByTestId('step-review-approvals') as HTMLInputElement).value).toBe('1');
    await user.click(screen.getByTestId('step-review-save'));
    await vi.waitFor(() => expect(saves()).toHaveLength(1));
    expect(await sentRules()).toEqual([
      {
        by: 'members',
        userIds: [BINH],
        approvals: 1,
        selfApproval: false,
        dueInHours: 24,
        onDue: 'escalate',
      },
    ]);
  });

  it('refuses due hours out of range where they are typed, and saves the rule with its due time and what happens then', async () => {
    const user = userEvent.setup();
    const review = { by: 'role' as const, role: 'reviewer' as const, approvals: 1, selfApproval: false };
    renderIn('workspace-1', { ...step, review });
    const hours = screen.getByLabelText('Hạn duyệt (giờ)');
    expect(hours).toBe(screen.getByTestId('step-review-due-hours'));
    // Without a due time, what happens once due has no meaning yet.
    expect(screen.getByTestId('step-review-on-due')).toHaveProperty('disabled', true);

    await user.type(hours, '9000');
    expect(hours.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toContain('1 đến 8760');
    expect(screen.getByTestId('step-review-save')).toHaveProperty('disabled', true);

    await user.clear(hours);
    await user.type(hours, '48');
    expect(hours.getAttribute('aria-invalid')).toBeNull();
    const onDue = screen.getByLabelText('Khi quá hạn') as HTMLSelectElement;
    expect([...onDue.options].map((o) => o.textContent)).toEqual([
      'Nhắc lại người duyệt',
      'Chuyển lên owner',
      'Hết hạn, trả lại người chạy',
    ]);
    await user.selectOptions(onDue, 'fail');
    expect(saves()).toHaveLength(0);
    await user.click(screen.getByTestId('step-review-save'));
    await vi.waitFor(() => expect(saves()).toHaveLength(1));
    expect(await sentRules()).toEqual([
      { by: 'role', role: 'reviewer', approvals: 1, selfApproval: false, dueInHours: 48, onDue: 'fail' },
    ]);
  });

  it('puts a change back as it was with Hoàn tác, saving nothing', async () => {
    const user = userEvent.setup();
    const review = { by: 'role' as const, role: 'editor' as const, approvals: 2, selfApproval: false };
    renderIn('workspace-1', { ...step, review });
    await user.selectOptions(screen.getByTestId('step-review-by'), 'runner');
    await user.click(screen.getByTestId('step-review-discard'));
    expect((screen.getByTestId('step-review-by') as HTMLSelectElement).value).toBe('editor');
    expect(screen.queryByTestId('step-review-save')).toBeNull();
    expect(saves()).toHaveLength(0);
  });

  it('shows the rule without controls to one who is not an owner of the workspace, saying who may change it', () => {
    const review = {
      by: 'members' as const,
      userIds: [BINH],
      approvals: 1,
      selfApproval: false,
      dueInHours: 8,
    };
    renderIn('workspace-1', { ...step, review }, 'editor');
    const card = screen.getByTestId('step-review-rule');
    expect(screen.getByTestId('step-review-owners-only').textContent).toBe(
      'Chỉ owner của workspace mới đổi được quy tắc review.',
    );
    expect(card.textContent).toContain('Bình Trần');
    expect(card.textContent).toContain('8 giờ');
    expect(card.querySelectorAll('select, input, button')).toHaveLength(0);
  });
});
