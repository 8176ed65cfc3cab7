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
