import { act } from '@testing-library/react';
import { vi } from 'vitest';

/**
 * A stand-in for IntersectionObserver in tests of a list read page by page (LoadMore): the test says when the
 * list's end comes into view. `install` in a beforeEach makes it the global one, with no observer yet.
 */
export function listEnd() {
  const observers = new Set<{ callback: IntersectionObserverCallback; watched: Element[] }>();
  class FakeIntersectionObserver {
    private readonly entry: { callback: IntersectionObserverCallback; watched: Element[] };
    constructor(callback: IntersectionObserverCallback) {
      this.entry = { callback, watched: [] };
      observers.add(this.entry);
    }
    observe(element: Element) {
      this.entry.watched.push(element);
    }
    disconnect() {
      observers.delete(this.entry);
    }
  }
  return {
    install() {
      observers.clear();
      vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
    },
    /** Scrolls the list's end into view: every observer still watching is told so. */
    scrollToTheEnd: () =>
      act(() => {
        for (const { callback, watched } of [...observers]) {
          callback(
            watched.map(
              (target) => ({ target, isIntersecting: true }) as unknown as IntersectionObserverEntry,
            ),
            {} as IntersectionObserver,
          );
        }
      }),
  };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * A fake API answering the list at `path` with `items` page by page, as the server's pages do (`limit`, and
 * `cursor` `c1`, `c2`... for the pages after the first); asked without a limit it answers every item, which a
 * screen reading page by page must never ask. `install` in a beforeEach makes it the global fetch.
 */
export function fakePagedApi<T>(path: string, items: T[]) {
  const fetchMock = vi.fn<typeof fetch>();
  return {
    /** The list's reads so far, as URLs. */
    reads: () =>
      fetchMock.mock.calls
        .map(([url]) => new URL(String(url), 'http://x'))
        .filter((url) => url.pathname === path),
    install() {
      fetchMock.mockReset();
      fetchMock.mockImplementation(async (input) => {
        const url = new URL(String(input), 'http://x');
        if (url.pathname !== path) return json({ message: 'not here' }, 404);
        const limit = Number(url.searchParams.get('limit'));
        if (!limit) return json(items);
        const page = Number(url.searchParams.get('cursor')?.slice(1) ?? 0);
        const start = page * limit;
        const next = start + limit < items.length ? `c${page + 1}` : null;
        return json({ items: items.slice(start, start + limit), nextCursor: next });
      });
      vi.stubGlobal('fetch', fetchMock);
    },
  };
}
