import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askedInSql, waitsForInSql } from '../src/api/executions/reviews-repository';
import { isNamedByReview, waitsFor } from '../src/domain/execution/reviews';
import type { Review } from '../src/domain/execution/types';
import type { Role } from '../src/domain/workspace/events';
import { createTestDatabase, type TestDatabase } from './support/database';

/**
 * Who a review waits for is one rule, `waitsFor` in the domain, and its SQL twin `waitsForInSql`, which the
 * inbox's query uses: over every combination of what decides it, both give the same answer (and so do
 * `isNamedByReview` and `askedInSql`, for the reviews a user is asked).
 */

const USER = '7a1e0f9c-0000-4000-8000-000000000001';
const RUNNER = '7a1e0f9c-0000-4000-8000-000000000002';
const OTHER = '7a1e0f9c-0000-4000-8000-000000000003';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

interface Case {
  review: Review;
  role: Role | null;
}

/** Every combination: how it asks, the user's role, who ran it, self-approval, the owners, approvals, status. */
function cases(): Case[] {
  const shapes: Pick<Review, 'by' | 'userIds' | 'role'>[] = [
    { by: 'members', userIds: [USER, OTHER], role: null },
    { by: 'members', userIds: [OTHER], role: null },
    { by: 'role', userIds: [], role: 'reviewer' },
    { by: 'role', userIds: [], role: 'editor' },
  ];
  const owners: Pick<Review, 'ownersToo' | 'ownersReason'>[] = [
    { ownersToo: false },
    { ownersToo: true },
    { ownersToo: true, ownersReason: 'too-few-deciders' },
  ];
  const all: Case[] = [];
  for (const shape of shapes)
    for (const role of ['owner', 'editor', 'reviewer', 'auditor', null] as const)
      for (const requestedBy of [USER, RUNNER])
        for (const selfApproval of [false, true])
          for (const owner of owners)
            for (const approvedBy of [[], [USER], [OTHER]])
              for (const status of ['pending', 'approved', 'rejected'] as const)
                all.push({
                  role,
                  review: {
                    ...shape,
                    ...owner,
                    requestedBy,
                    selfApproval,
                    status,
                    approvalsGiven: approvedBy.map((userId) => ({
                      userId,
                      role: 'reviewer',
                      comment: null,
                      at: '2026-01-01T00:00:00.000Z',
                    })),
                  } as unknown as Review,
                });
  return all;
}

describe('who a review waits for, in the domain and in SQL', () => {
  it('is the same over every combination of rule, role, runner, owners, approvals and status', async () => {
    const all = cases();
    const rows = all.map(({ review, role }, i) => ({
      i,
      by: review.by,
      user_ids: review.userIds,
      role: review.role,
      self_approval: review.selfApproval,
      requested_by: review.requestedBy,
      owners_too: review.ownersToo,
      owners_reason: review.ownersReason ?? null,
      approvals_given: review.approvalsGiven,
      status: review.status,
      member_role: role,
    }));
    const { sql } = db;
    const answers = await sql<{ i: number; waits: boolean; asked: boolean }[]>`
      SELECT r.i, coalesce(${waitsForInSql(sql, USER)}, false) AS waits,
             coalesce(${askedInSql(sql, USER)}, false) AS asked
      FROM jsonb_to_recordset(${sql.json(JSON.parse(JSON.stringify(rows)))}) AS r(i int, by text, user_ids jsonb, role text,
        self_approval boolean, requested_by uuid, owners_too boolean, owners_reason text, approvals_given jsonb,
        status text, member_role text)
      CROSS JOIN LATERAL (SELECT r.member_role AS role) m
      ORDER BY r.i`;
    expect(answers).toHaveLength(all.length);
    const differ = answers.flatMap(({ i, waits, asked }) => {
      const { review, role } = all[i]!;
      const domainWaits = waitsFor(review, { userId: USER, role });
      // `isNamedByReview` answers for pending reviews (a decided one asks nobody any more).
      const domainAsked = review.status !== 'pending' || isNamedByReview(review, USER, role);
      const sqlAsked = review.status !== 'pending' || asked;
      return domainWaits === waits && domainAsked === sqlAsked
        ? []
        : [{ review, role, sql: { waits, asked }, domain: { waits: domainWaits, asked: domainAsked } }];
    });
    expect(differ).toEqual([]);
    // The table holds both answers, so an always-false or always-true twin would not pass.
    expect(new Set(answers.map((a) => a.waits))).toEqual(new Set([true, false]));
  });
});
