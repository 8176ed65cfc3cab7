import type { InfiniteData } from '@tanstack/react-query';

/** How many items a screen asks for at a time: a page costs the same however long the list is. */
export const LIST_PAGE_SIZE = 50;

/** A page as the API answers one: its items in the list's order, and where the next starts (null: none). */
export interface ListPage<T> {
  items: readonly T[];
  nextCursor: string | null;
}

/** The first page starts nowhere; each next one at the cursor the page before gave. */
export const pagedListParams = {
  initialPageParam: null as string | null,
  getNextPageParam: (last: ListPage<unknown>) => last.nextCursor,
};

/** The query of a page: its size, and its cursor unless it is the first. */
export const pageQuery = (cursor: string | null, limit = LIST_PAGE_SIZE) =>
  cursor === null ? { limit } : { limit, cursor };

/** Every item of the pages read so far, in the list's order. */
export function itemsOf<T>(data: InfiniteData<ListPage<T>, unknown> | undefined): T[] {
  return data?.pages.flatMap((page) => page.items) ?? [];
}
