// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listEnd } from '@/components/ui/load-more.testing';
import { createQueryClient } from '@/lib/api-client';
import { LIST_PAGE_SIZE } from '@/lib/paged-list';
import type { UserSession } from '../api/get-user-sessions';
import { SessionsPage } from './sessions-page';

const AT = '2025-01-02T03:04:05.000Z';
const aSession = (n: number): UserSession => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  userId: '00000000-0000-4000-8000-000000000000',
  flowId: null,
  executionId: null,
  sessionName: `Session ${n}`,
  sessionData: {},
  lastActiveAt: AT,
  createdAt: AT,
  flowName: null,
});
/** 70 sessions, served 50 at a time: page `c1` follows the first. */
const sessions = Array.from({ length: 70 }, (_, i) => aSession(i + 1));

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const fetchMock = vi.fn<typeof fetch>();
const sessionReads = () =>
  fetchMock.mock.calls
    .map(([url]) => new URL(String(url), 'http://x'))
    .filter((u) => u.pathname === '/api/user-sessions');

const { install: installListEnd, scrollToTheEnd } = listEnd();

beforeEach(() => {
  installListEnd();
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://x');
    if (url.pathname !== '/api/user-sessions') return json({ message: 'not here' }, 404);
    const limit = Number(url.searchParams.get('limit'));
    // Asked without a page, the list would answer every session: the screen must never ask so.
    if (!limit) return json(sessions);
    const start = url.searchParams.get('cursor') === 'c1' ? 50 : 0;
    const next = start + limit < sessions.length ? 'c1' : null;
    return json({ items: sessions.slice(start, start + limit), nextCursor: next });
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the saved sessions, page by page', () => {
  it('reads one page first, and the next with its cursor as the end scrolls into view', async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <SessionsPage />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Session 1')).toBeTruthy();
    expect(screen.getAllByTestId('session-card')).toHaveLength(LIST_PAGE_SIZE);
    expect(sessionReads().map((u) => u.search)).toEqual([`?limit=${LIST_PAGE_SIZE}`]);

    scrollToTheEnd();
    expect(await screen.findByText('Session 70')).toBeTruthy();
    expect(screen.getAllByTestId('session-card')).toHaveLength(70);
    expect(sessionReads().at(-1)?.searchParams.get('cursor')).toBe('c1');
    // The last page read: the end is gone, and nothing more is asked.
    expect(screen.queryByTestId('sessions-load-more')).toBeNull();
    scrollToTheEnd();
    expect(sessionReads()).toHaveLength(2);
  });
});
