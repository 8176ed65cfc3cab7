import type { Fragment, Sql } from 'postgres';
import { z } from 'zod';
import { ruleViolated } from '../../domain/errors';
import { wholeNumber } from './request-schemas';

/**
 * Pages of the lists that grow: `?limit=&cursor=` answers `{ items, nextCursor }`, read by keyset (the
 * rows after the cursor's sort keys, never an OFFSET), so an item added while a client pages never shifts or
 * repeats the items of its later pages. A list asked without `limit` and `cursor` answers as it always has
 * (a bare array): the published contract and the web app read it so.
 */

export const MAX_PAGE_SIZE = 200;
/** The page size when a cursor is sent without a limit. */
export const DEFAULT_PAGE_SIZE = 50;

/** Why a page size is refused: not a whole number, out of range, empty, or given twice. */
export const PAGE_LIMIT_REFUSED = `một số nguyên từ 1 đến ${MAX_PAGE_SIZE}, gửi một lần`;

/** How many items a page holds: 1 to MAX_PAGE_SIZE. */
export const pageLimit = wholeNumber(1, MAX_PAGE_SIZE, PAGE_LIMIT_REFUSED);

/** The page parameters every paged list takes, merged into its querystring. */
export const pageQuery = z.object({
  limit: pageLimit
    .optional()
    .describe(`Items per page (1-${MAX_PAGE_SIZE}). With limit or cursor the answer is a page.`),
  cursor: z
    .string()
    .min(1)
    .max(2000)
    .optional()
    .describe('The nextCursor of the page before; opaque. With limit or cursor the answer is a page.'),
});
export type PageQuery = z.infer<typeof pageQuery>;

/** A list's answer: the bare array when no page was asked for, else one page and the cursor of the next. */
export const pagedOr = <T extends z.ZodType>(item: T) =>
  z.union([
    z.array(item),
    z.object({
      items: z.array(item),
      /** Where the next page starts; null on the last page. */
      nextCursor: z.string().nullable(),
    }),
  ]);

/** A page to read: how many items, and the sort keys of the item it starts after (null: the first page). */
export interface Page {
  limit: number;
  after: SortValue[] | null;
}

type SortValue = string | number;
/**
 * How a sort key is compared: the cursor's value is cast to it in SQL and checked against it before. `int` is
 * PostgreSQL's integer; `bigint` any safe integer (a size or a position that may pass 2^31).
 */
type KeyType = 'timestamptz' | 'uuid' | 'int' | 'bigint';

/** One key of a list's order: an SQL expression of the row, its direction and its type. */
export interface SortKey {
  sql: string;
  order: 'asc' | 'desc';
  type: KeyType;
}

/** A list's order, total (a unique id last) so the keyset is exact; its name binds a cursor to the list. */
export interface ListOrder {
  list: string;
  keys: SortKey[];
}

/** The page a request asks for, or null: without limit and cursor the list answers whole. */
export function pageAsked(query: PageQuery, order: ListOrder): Page | null {
  if (query.limit === undefined && query.cursor === undefined) return null;
  return {
    limit: query.limit ?? DEFAULT_PAGE_SIZE,
    after: query.cursor === undefined ? null : decodeCursor(query.cursor, order),
  };
}

/** A list's answer to a request: the rows `read` gives for the page asked, as answerOf answers them. */
export async function listAnswer<R extends Keyed<object>>(
  query: PageQuery,
  order: ListOrder,
  read: (page: Page | null) => Promise<R[]>,
) {
  const page = pageAsked(query, order);
  return answerOf(await read(page), page, order);
}

/** A row read for a page carries its sort keys (`page_key`), which name the cursor of the page after it. */
export type Keyed<T> = T & { pageKey: SortValue[] };

/** One page of a list, and where the next starts (null: this is the last). */
export interface PageAnswer<T> {
  items: T[];
  nextCursor: string | null;
}

type Unkeyed<R> = Omit<R, 'pageKey'>;

/**
 * The answer from rows read with `keyset` (at most limit + 1: one more tells whether a page follows): the
 * bare rows with no page asked, else the page and the cursor after its last item.
 */
export function answerOf<R extends Keyed<object>>(
  rows: R[],
  page: Page,
  order: ListOrder,
): PageAnswer<Unkeyed<R>>;
export function answerOf<R extends Keyed<object>>(
  rows: R[],
  page: Page | null,
  order: ListOrder,
): Unkeyed<R>[] | PageAnswer<Unkeyed<R>>;
export function answerOf<R extends Keyed<object>>(rows: R[], page: Page | null, order: ListOrder) {
  const items = (page ? rows.slice(0, page.limit) : rows).map(({ pageKey: _key, ...item }) => item);
  if (!page) return items;
  const last = rows[page.limit - 1];
  return { items, nextCursor: rows.length > page.limit && last ? encodeCursor(order, last.pageKey) : null };
}

/**
 * The parts of a list's query that read a page: the sort keys as a column (`page_key`), the condition that
 * keeps the rows after the cursor, the order and the limit. Without a page: every row, in the same order.
 */
export function keyset(sql: Sql, order: ListOrder, page: Page | null) {
  const { keys } = order;
  // json keeps a timestamptz at full precision (microseconds), as text the cursor casts back.
  const pageKey = sql.unsafe(`json_build_array(${keys.map((key) => key.sql).join(', ')}) AS page_key`);
  const orderBy = sql.unsafe(
    `ORDER BY ${keys.map((key) => `${key.sql} ${key.order === 'desc' ? 'DESC' : 'ASC'}`).join(', ')}`,
  );
  return {
    pageKey,
    after: page?.after ? afterKeys(sql, keys, page.after) : sql`TRUE`,
    orderBy,
    limit: page ? sql`LIMIT ${page.limit + 1}` : sql``,
  };
}

/**
 * The rows after `values` in the order of `keys`: one row comparison when every key runs the same way
 * (an index can serve it), else the expansion k1 after v1, or k1 = v1 and k2 after v2, and so on.
 */
function afterKeys(sql: Sql, keys: SortKey[], values: SortValue[]): Fragment {
  const column = (key: SortKey) => sql.unsafe(key.sql);
  // Sent as text and cast in SQL: a parameter postgres.js took for a timestamptz would pass through a Date
  // and lose the microseconds.
  const value = (key: SortKey, i: number) => sql`${String(values[i]!)}::text::${sql.unsafe(key.type)}`;
  const beyond = (key: SortKey) => sql.unsafe(key.order === 'desc' ? '<' : '>');
  const list = (parts: Fragment[]) => parts.reduce((joined, part) => sql`${joined}, ${part}`);
  if (keys.every((key) => key.order === keys[0]!.order)) {
    return sql`(${list(keys.map(column))}) ${beyond(keys[0]!)} (${list(keys.map(value))})`;
  }
  const alternatives = keys.map((key, i) => {
    const equal = keys.slice(0, i).map((before, j) => sql`${column(before)} = ${value(before, j)}`);
    return [...equal, sql`${column(key)} ${beyond(key)} ${value(key, i)}`].reduce(
      (joined, part) => sql`${joined} AND ${part}`,
    );
  });
  return sql`(${alternatives.reduce((joined, part) => sql`(${joined}) OR (${part})`)})`;
}

/**
 * Pages of a list held in memory (read whole anyway, e.g. a stream folded from its start): the items after
 * the cursor's single integer key, a position that only grows.
 */
export function pageInMemory<T>(
  items: T[],
  positionOf: (item: T) => number,
  page: Page | null,
  order: ListOrder,
) {
  const after = page?.after ? (page.after[0] as number) : null;
  const keyed = items.map((item) => ({ ...item, pageKey: [positionOf(item)] }));
  const rest = after === null ? keyed : keyed.filter((item) => item.pageKey[0]! > after);
  return answerOf(page ? rest.slice(0, page.limit + 1) : rest, page, order);
}

const BAD_CURSOR =
  'cursor: không phải cursor của danh sách này; hãy gửi nextCursor của trang trước, hoặc không gửi.';

/** The cursor: base64url JSON of the list's name and the sort keys of the last item given. */
export function encodeCursor(order: ListOrder, values: SortValue[]): string {
  return Buffer.from(JSON.stringify({ list: order.list, after: values })).toString('base64url');
}

/** The sort keys a cursor names; a malformed cursor, or one of another list, is a 400 (never reaches SQL). */
export function decodeCursor(cursor: string, order: ListOrder): SortValue[] {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw ruleViolated(BAD_CURSOR);
  }
  const { list, after } = (decoded ?? {}) as { list?: unknown; after?: unknown };
  if (
    list !== order.list ||
    !Array.isArray(after) ||
    after.length !== order.keys.length ||
    !order.keys.every((key, i) => fits(key.type, after[i]))
  ) {
    throw ruleViolated(BAD_CURSOR);
  }
  return after as SortValue[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A timestamptz as PostgreSQL writes it in json: ISO 8601 with up to microseconds and an offset. */
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?(Z|[+-]\d{2}(:\d{2})?)$/;

/** Whether a cursor's value is one PostgreSQL takes as the key's type. */
function fits(type: KeyType, value: unknown): boolean {
  if (type === 'int') return Number.isSafeInteger(value) && Math.abs(value as number) < 2 ** 31;
  if (type === 'bigint') return Number.isSafeInteger(value);
  if (typeof value !== 'string') return false;
  if (type === 'uuid') return UUID.test(value);
  const date = TIMESTAMP.exec(value);
  if (!date) return false;
  const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  return year >= 1000 && calendar.getUTCMonth() === month - 1 && calendar.getUTCDate() === day;
}

/** How two values of a sort key compare (negative: a before b in ascending order), as PostgreSQL compares them. */
function compareKey(type: KeyType, a: SortValue, b: SortValue): number {
  if (type === 'int' || type === 'bigint') return Number(a) - Number(b);
  if (type === 'timestamptz') return Date.parse(String(a)) - Date.parse(String(b));
  const [x, y] = [String(a).toLowerCase(), String(b).toLowerCase()];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Whether sort keys `values` come after `after` in the order of `keys`. */
function comesAfter(keys: SortKey[], values: SortValue[], after: SortValue[]): boolean {
  for (const [i, key] of keys.entries()) {
    const compared = compareKey(key.type, values[i]!, after[i]!);
    if (compared !== 0) return key.order === 'asc' ? compared > 0 : compared < 0;
  }
  return false;
}

/** A time as a cursor keeps it: ISO 8601, as PostgreSQL's json gives one (a Date or a stored text alike). */
export const timeKey = (at: Date | string) => new Date(at).toISOString();

/**
 * A bounded list read whole (a workspace's webhooks and members, a user's own keys, a server's models), paged
 * by the same rules as the lists read by keyset in SQL: `items` in the list's order, `keysOf` each item's sort
 * keys (total: an id last, or a position that only grows), and the page the items after the cursor's keys.
 * Without `limit` and `cursor`, the bare array as before.
 */
export function listAnswerInMemory<T extends object>(
  query: PageQuery,
  order: ListOrder,
  items: T[],
  keysOf: (item: T, index: number) => SortValue[],
) {
  const page = pageAsked(query, order);
  const keyed = items.map((item, i) => ({ ...item, pageKey: keysOf(item, i) }));
  const after = page?.after;
  const rest = after ? keyed.filter((item) => comesAfter(order.keys, item.pageKey, after)) : keyed;
  return answerOf(page ? rest.slice(0, page.limit + 1) : rest, page, order);
}

/** The order of a list made in memory in a fixed order of its own (models, templates): by its position. */
export const positionOrder = (list: string): ListOrder => ({
  list,
  keys: [{ sql: 'position', order: 'asc', type: 'int' }],
});
