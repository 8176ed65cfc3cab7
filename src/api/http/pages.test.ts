import { describe, expect, it } from 'vitest';
import { DomainError } from '../../domain/errors';
import {
  answerOf,
  decodeCursor,
  encodeCursor,
  type ListOrder,
  pageAsked,
  pageInMemory,
  pageQuery,
} from './pages';

const order: ListOrder = {
  list: 'things',
  keys: [
    { sql: 'created_at', order: 'desc', type: 'timestamptz' },
    { sql: 'id', order: 'asc', type: 'uuid' },
  ],
};
const id = '0b8e6b2c-5d1f-4c3a-9e7d-1a2b3c4d5e6f';
const at = '2026-11-27T04:56:13.506476+00:00';
const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('pages', () => {
  it('gives back the sort keys a cursor was made of, microseconds and all', () => {
    expect(decodeCursor(encodeCursor(order, [at, id]), order)).toEqual([at, id]);
  });

  it.each([
    ['not base64 JSON', 'garbage'],
    ['JSON null', forged(null)],
    ['another list', encodeCursor({ ...order, list: 'others' }, [at, id])],
    ['too few keys', forged({ list: 'things', after: [at] })],
    ['a day that does not exist', forged({ list: 'things', after: ['2026-02-30T00:00:00Z', id] })],
    ['not a time', forged({ list: 'things', after: ['yesterday', id] })],
    ['not a uuid', forged({ list: 'things', after: [at, "'; DROP TABLE things; --"] })],
    ['a number for a time', forged({ list: 'things', after: [1, id] })],
  ])('refuses a cursor that is %s as a 400, before any SQL', (_what, cursor) => {
    expect(() => decodeCursor(cursor, order)).toThrow(DomainError);
    try {
      decodeCursor(cursor, order);
    } catch (error) {
      expect(error).toMatchObject({ kind: 'rule_violated' });
    }
  });

  it('asks for no page without limit and cursor, and 50 items with a cursor alone', () => {
    expect(pageAsked({}, order)).toBeNull();
    expect(pageAsked({ limit: 3 }, order)).toEqual({ limit: 3, after: null });
    expect(pageAsked({ cursor: encodeCursor(order, [at, id]) }, order)).toEqual({
      limit: 50,
      after: [at, id],
    });
  });

  it('takes limits of 1 to 200 only', () => {
    expect(pageQuery.safeParse({ limit: '200' }).success).toBe(true);
    for (const limit of ['0', '201', 'abc', '1.5'])
      expect(pageQuery.safeParse({ limit }).success).toBe(false);
  });

  it('answers the bare rows without a page, else the page and a cursor only when more follow', () => {
    const rows = [1, 2, 3].map((n) => ({ n, pageKey: [n] }));
    const numbered: ListOrder = { list: 'n', keys: [{ sql: 'n', order: 'asc', type: 'int' }] };
    expect(answerOf(rows, null, numbered)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    const first = answerOf(rows, { limit: 2, after: null }, numbered);
    expect(first.items).toEqual([{ n: 1 }, { n: 2 }]);
    expect(decodeCursor(first.nextCursor!, numbered)).toEqual([2]);
    expect(answerOf(rows, { limit: 3, after: null }, numbered)).toEqual({
      items: [{ n: 1 }, { n: 2 }, { n: 3 }],
      nextCursor: null,
    });
    expect(
      pageInMemory([{ n: 1 }, { n: 2 }, { n: 3 }], (item) => item.n, { limit: 5, after: [1] }, numbered),
    ).toEqual({ items: [{ n: 2 }, { n: 3 }], nextCursor: null });
  });
});
