import { useEffect, useRef } from 'react';
import { pagedList as t } from '@/lib/strings';
import { Button } from './button';

/**
 * The end of a list read page by page: while a page follows, the next one is read as this comes into view
 * (and again while it stays in view, so a short or filtered list fills the screen), or on its button. Where it
 * is always in view (beside a picker), `onSight={false}` leaves only the button: each page is asked for.
 */
export function LoadMore({
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
  testId = 'load-more',
  onSight = true,
}: {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  testId?: string;
  onSight?: boolean;
}) {
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = sentinel.current;
    if (
      !onSight ||
      !element ||
      !hasNextPage ||
      isFetchingNextPage ||
      typeof IntersectionObserver === 'undefined'
    )
      return;
    // Observed anew after each page: told at once whether it is still in view.
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) fetchNextPage();
      },
      { rootMargin: '200px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [onSight, hasNextPage, isFetchingNextPage, fetchNextPage]);
  if (!hasNextPage) return null;
  return (
    <div ref={sentinel} className="flex justify-center py-4" data-testid={testId}>
      <Button
        variant="outline"
        size="sm"
        onClick={() => fetchNextPage()}
        disabled={isFetchingNextPage}
        data-testid={`${testId}-button`}
      >
        {isFetchingNextPage ? t.loadingMore : t.loadMore}
      </Button>
    </div>
  );
}
