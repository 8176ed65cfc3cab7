// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakePagedApi, listEnd } from '@/components/ui/load-more.testing';
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

const list = fakePagedApi('/api/user-sessions', sessions);
const sessionReads = list.reads;
const { install: installListEnd, scrollToTheEnd } = listEnd();

beforeEach(() => {
  installListEnd();
  list.install();
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
