import type { InfiniteData } from '@tanstack/react-query';
import { useEffect } from 'react';

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

/** A page as a query's cache holds it (the API's answer type, its items a plain array). */
type CachedPage<T> = { items: T[]; nextCursor: string | null };

/** A list known to be empty, as an infinite query holds it: one page, nothing after it. */
export function emptyPages(): InfiniteData<{ items: never[]; nextCursor: string | null }, string | null> {
  return { pages: [{ items: [], nextCursor: null }], pageParams: [null] };
}

/**
 * The pages with `item` first (a new item of a newest-first list), and any earlier copy of it gone: the
 * cursors stay as they were, since they name the last item of their page. Nothing read yet stays unread.
 */
export function withFirst<T extends { id: string }, P>(
  data: InfiniteData<CachedPage<T>, P> | undefined,
  item: T,
): InfiniteData<CachedPage<T>, P> | undefined {
  if (!data) return data;
  return {
    ...data,
    pages: data.pages.map((page, i) => {
      const rest = page.items.filter((other) => other.id !== item.id);
      return { ...page, items: i === 0 ? [item, ...rest] : rest };
    }),
  };
}

/** The pages with each item read so far replaced by what `change` makes of it. */
export function mapItems<T, P>(
  data: InfiniteData<CachedPage<T>, P> | undefined,
  change: (item: T) => T,
): InfiniteData<CachedPage<T>, P> | undefined {
  if (!data) return data;
  return { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.map(change) })) };
}

/**
 * Reads the next pages, one after another, until `found` holds or the list ends: for a screen that needs an
 * item it knows of (one chosen in its URL, one opened from elsewhere) among those it has read.
 */
export function useReadUntil(
  pages: {
    hasNextPage: boolean;
    isFetchingNextPage: boolean;
    isFetching: boolean;
    fetchNextPage: () => unknown;
  },
  found: boolean,
) {
  const { hasNextPage, isFetchingNextPage, isFetching, fetchNextPage } = pages;
  useEffect(() => {
    if (!found && hasNextPage && !isFetching && !isFetchingNextPage) fetchNextPage();
  }, [found, hasNextPage, isFetching, isFetchingNextPage, fetchNextPage]);
}
