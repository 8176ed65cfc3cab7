// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakePagedApi, listEnd } from '@/components/ui/load-more.testing';
import { type User, userQueryOptions } from '@/features/auth';
import { createQueryClient } from '@/lib/api-client';
import type { FlowListItem } from '@/lib/flows-query';
import { LIST_PAGE_SIZE } from '@/lib/paged-list';
import { flowsList, pagedList } from '@/lib/strings';
import { workspacesQueryOptions } from '@/lib/workspace-roles';
import { FlowsPage } from './flows-page';

const AT = '2025-01-02T03:04:05.000Z';
const ME = '99999999-9999-4999-8999-999999999999';
const aFlow = (n: number): FlowListItem => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  name: `Flow ${n}`,
  description: '',
  status: 'active',
  stepCount: 1,
  lastRun: null,
  userId: ME,
  reviewRules: false,
  createdAt: AT,
  updatedAt: AT,
});
/** 120 flows, served 50 at a time: pages `c1` and `c2` follow the first. */
const flows = Array.from({ length: 120 }, (_, i) => aFlow(i + 1));

const list = fakePagedApi('/api/flows', flows);
const flowReads = list.reads;
const { install: installListEnd, scrollToTheEnd } = listEnd();

beforeEach(() => {
  installListEnd();
  list.install();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage() {
  const client = createQueryClient();
  client.setQueryData(workspacesQueryOptions.queryKey, []);
  render(
    <QueryClientProvider client={client}>
      <FlowsPage />
    </QueryClientProvider>,
  );
}

const shownFlows = () => screen.queryAllByTestId('flow-card').length;

// Rendering and scrolling in jsdom takes seconds when the machine is busy.
describe('the flows list, page by page', { timeout: 20_000 }, () => {
  it('reads one page first, and the next ones as its end scrolls into view, until the last', async () => {
    renderPage();
    expect(await screen.findByText('Flow 1')).toBeTruthy();
    expect(shownFlows()).toBe(LIST_PAGE_SIZE);
    expect(flowReads().map((u) => u.search)).toEqual([`?limit=${LIST_PAGE_SIZE}`]);

    scrollToTheEnd();
    expect(await screen.findByText('Flow 100')).toBeTruthy();
    expect(shownFlows()).toBe(100);
    expect(flowReads().at(-1)?.searchParams.get('cursor')).toBe('c1');

    scrollToTheEnd();
    expect(await screen.findByText('Flow 120')).toBeTruthy();
    expect(shownFlows()).toBe(120);
    // The last page read: the list's end is gone, nothing more is asked.
    expect(screen.queryByTestId('flows-load-more')).toBeNull();
    scrollToTheEnd();
    expect(flowReads()).toHaveLength(3);
    expect(flowReads().every((u) => Number(u.searchParams.get('limit')) === LIST_PAGE_SIZE)).toBe(true);
  });

  it('reads the next page on its button too', async () => {
    renderPage();
    await screen.findByText('Flow 50');
    await userEvent.click(screen.getByRole('button', { name: pagedList.loadMore }));
    expect(await screen.findByText('Flow 51')).toBeTruthy();
    expect(flowReads()).toHaveLength(2);
  });

  it('says no flow matches a search only once every page is read', async () => {
    renderPage();
    await screen.findByText('Flow 1');
    await userEvent.type(screen.getByTestId('flow-search'), 'Flow 119');
    // Nothing read so far matches: the end stays in view and the pages after are read.
    expect(screen.queryByTestId('flows-no-match')).toBeNull();
    scrollToTheEnd();
    // The second page read (the button reads "Tải thêm" again), the end is still in view.
    await vi.waitFor(() => expect(flowReads()).toHaveLength(2));
    await screen.findByRole('button', { name: pagedList.loadMore });
    scrollToTheEnd();
    expect(await screen.findByText('Flow 119')).toBeTruthy();
    await userEvent.clear(screen.getByTestId('flow-search'));
    await userEvent.type(screen.getByTestId('flow-search'), 'no such flow');
    expect(screen.getByTestId('flows-no-match').textContent).toBe(flowsList.noMatch);
  });
});

describe("a workspace's flows, moved and deleted as the server allows", { timeout: 20_000 }, () => {
  const TEAM = '11111111-1111-4111-8111-111111111111';
  const OWN = '22222222-2222-4222-8222-222222222222';
  const mine = { ...aFlow(1), name: 'Made by me' };
  const theirs = { ...aFlow(2), name: 'Made by another', userId: '33333333-3333-4333-8333-333333333333' };
  const ruled = { ...aFlow(3), name: 'With a review rule', reviewRules: true };
  const teamFlows = fakePagedApi('/api/flows', [mine, theirs, ruled]);

  /** The list of the Team workspace, where the user is `role`; they own the workspace Own. */
  async function renderTeam(role: 'owner' | 'editor') {
    teamFlows.install();
    const client = createQueryClient();
    client.setQueryData(workspacesQueryOptions.queryKey, [
      { id: TEAM, name: 'Team', role },
      { id: OWN, name: 'Own', role: 'owner' },
    ]);
    client.setQueryData(userQueryOptions.queryKey, { id: ME, email: 'me@example.com' } as User);
    render(
      <QueryClientProvider client={client}>
        <FlowsPage />
      </QueryClientProvider>,
    );
    const team = screen
      .getAllByTestId('flow-place')
      .find((place) => place.getAttribute('data-workspace-id') === TEAM)!;
    await userEvent.click(team);
    await screen.findByText('With a review rule');
  }

  /** The entries of the flow's menu: where it may move ('' for Mine), and whether it may be deleted. */
  async function menuOf(name: string) {
    const card = screen.getAllByTestId('flow-card').find((each) => each.textContent?.includes(name))!;
    await userEvent.click(within(card).getByTestId('flow-menu'));
    // The menu is open once its first entry shows.
    await screen.findByTestId('flow-export');
    const moves = screen.queryAllByTestId('flow-move');
    const entries = {
      moves: moves.map((entry) => entry.getAttribute('data-workspace-id')),
      delete: screen.queryByTestId('flow-delete') !== null,
    };
    await userEvent.keyboard('{Escape}');
    return entries;
  }

  it('offers an editor Mine only for a flow they made, and no move or delete of a flow with review rules', async () => {
    await renderTeam('editor');
    expect(await menuOf('Made by me')).toEqual({ moves: ['', OWN], delete: true });
    expect(await menuOf('Made by another')).toEqual({ moves: [OWN], delete: true });
    expect(await menuOf('With a review rule')).toEqual({ moves: [], delete: false });
  });

  it('offers an owner of the workspace every move of a flow with review rules that is theirs', async () => {
    await renderTeam('owner');
    expect(await menuOf('With a review rule')).toEqual({ moves: ['', OWN], delete: true });
    expect(await menuOf('Made by another')).toEqual({ moves: [OWN], delete: true });
  });
});
