// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/api-client';
import { LIST_PAGE_SIZE } from '@/lib/paged-list';
import { pagedList } from '@/lib/strings';
import type { SuggestionRecord } from '../api/get-suggestions';
import { SuggestionsDialog } from './suggestions-dialog';

const FLOW = '00000000-0000-4000-8000-00000000f10f';
const aRecord = (n: number): SuggestionRecord =>
  ({
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    flowId: FLOW,
    createdAt: '2025-01-02T03:04:05.000Z',
    flowStructure: { steps: [] },
    suggestions: [],
    strategicRecommendation: `Advice ${n}`,
  }) as unknown as SuggestionRecord;
/** 60 rounds, newest first, served 50 at a time: page `c1` follows the first. */
const records = Array.from({ length: 60 }, (_, i) => aRecord(i + 1));

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const fetchMock = vi.fn<typeof fetch>();
const listReads = () =>
  fetchMock.mock.calls
    .filter(([, init]) => (init?.method ?? 'GET') === 'GET')
    .map(([url]) => new URL(String(url), 'http://x'))
    .filter((u) => u.pathname === `/api/flows/${FLOW}/suggestions`);

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://x');
    if (url.pathname !== `/api/flows/${FLOW}/suggestions`) return json({ message: 'not here' }, 404);
    if (init?.method === 'POST') return json(aRecord(61), 201);
    const limit = Number(url.searchParams.get('limit'));
    if (!limit) return json(records);
    const start = url.searchParams.get('cursor') === 'c1' ? 50 : 0;
    const next = start + limit < records.length ? 'c1' : null;
    return json({ items: records.slice(start, start + limit), nextCursor: next });
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const shown = () => screen.getAllByTestId('strategic-recommendation').map((el) => el.textContent);

describe('the suggestions dialog, page by page', () => {
  it('reads the next page with the first page’s cursor on its button, and a new round goes on top', async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <SuggestionsDialog flowId={FLOW} open onOpenChange={() => {}} />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Advice 50')).toBeTruthy();
    expect(shown()).toHaveLength(LIST_PAGE_SIZE);
    expect(listReads().map((u) => u.search)).toEqual([`?limit=${LIST_PAGE_SIZE}`]);

    await userEvent.click(screen.getByRole('button', { name: pagedList.loadMore }));
    expect(await screen.findByText('Advice 60')).toBeTruthy();
    expect(shown()).toHaveLength(60);
    expect(listReads().at(-1)?.searchParams.get('cursor')).toBe('c1');
    expect(screen.queryByTestId('suggestions-load-more')).toBeNull();

    await userEvent.click(screen.getByTestId('generate-suggestions'));
    await vi.waitFor(() => expect(shown()[0]).toBe('Advice 61'));
    expect(shown()).toHaveLength(61);
    expect(listReads()).toHaveLength(2);
  });
});
