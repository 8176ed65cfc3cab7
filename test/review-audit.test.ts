import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, OFFLINE_MODEL, type TestApp } from './support/test-app';
import { join, ok, person as personOf } from './support/workspace-people';

/**
 * The reviews of an execution as an auditor reads them through the API: who was asked, who decided what,
 * with which comment or reason, having seen which text (an edit made before a decision is what was seen).
 */

let t: TestApp;

const person = (firstName: string) => personOf(t.app, firstName);

beforeAll(async () => {
  t = await createTestApp({ freeStepAllowance: 1_000 }, OFFLINE_MODEL);
});
afterAll(() => t.close());

/**
 * A workspace of an owner and two reviewers, Ana and Bao (names ending in `suffix`), with a one-step blog
 * flow whose step they review (`approvals` of them), and an execution of it started by the owner.
 */
async function blogReviewedBy(suffix: string, team: string, approvals: number) {
  const owner = await person(`Owner${suffix}`);
  const ana = await person(`Ana${suffix}`);
  const bao = await person(`Bao${suffix}`);
  const { id: workspaceId } = ok(await owner.client.post('/api/workspaces', { name: team }), 201);
  await join(owner, workspaceId, ana, 'reviewer');
  await join(owner, workspaceId, bao, 'reviewer');
  const flow = ok(
    await owner.client.post('/api/flows', { name: 'Blog', description: 'Posts', workspaceId }),
    201,
  );
  const draft = ok(
    await owner.client.post('/api/steps', {
      flowId: flow.id,
      name: 'Draft',
      order: 1,
      systemPrompt: 'Write a short post about tea.',
      review: { by: 'members', userIds: [ana.id, bao.id], approvals },
    }),
    201,
  );
  const execution = ok(await owner.client.post(`/api/flows/${flow.id}/execute`), 201);
  const runStep = async () =>
    ok(await owner.client.post(`/api/executions/${execution.id}/steps/${draft.id}/execute`, {}));
  return { owner, ana, bao, workspaceId, draft, execution, runStep };
}

describe("an execution's reviews for the auditor", () => {
  it('names who was asked and who decided, with what they saw; a stranger finds nothing', async () => {
    const { owner, ana, bao, workspaceId, draft, execution, runStep } = await blogReviewedBy('', 'Team', 2);
    const auditor = await person('Audit');
    const stranger = await person('Stranger');
    await join(owner, workspaceId, auditor, 'auditor');

    // The first run is rejected by Bao, with a reason.
    const first = await runStep();
    const firstReview = first.execution.reviews[0].id as string;
    const firstText = first.results[0].result as string;
    ok(await bao.client.post(`/api/reviews/${firstReview}/reject`, { reason: 'Too long' }));

    // The second run: Ana approves it as it came; Bao shortens the text, which voids her approval and asks
    // the review again; both approve the edit.
    const second = await runStep();
    const secondReview = second.execution.reviews.find((r: { status: string }) => r.status === 'pending');
    const resultId = second.results[0].id as string;
    const originalText = second.results[0].result as string;
    ok(await ana.client.post(`/api/reviews/${secondReview.id}/approve`, { comment: 'Fine by me' }));
    ok(await bao.client.put(`/api/step-results/${resultId}`, { result: 'Tea, in short.' }));
    const shown = ok(await owner.client.get(`/api/executions/${execution.id}`));
    const thirdReview = shown.reviews.at(-1).id as string;
    ok(await bao.client.post(`/api/reviews/${thirdReview}/approve`, {}));
    ok(await ana.client.post(`/api/reviews/${thirdReview}/approve`, { comment: 'Shorter is better' }));

    const audit = ok(await auditor.client.get(`/api/executions/${execution.id}/reviews/audit`));
    const asked = {
      by: 'members',
      members: [
        { userId: ana.id, name: 'Ana' },
        { userId: bao.id, name: 'Bao' },
      ],
      role: null,
      approvalsNeeded: 2,
    };
    expect(audit).toEqual([
      {
        reviewId: firstReview,
        stepId: draft.id,
        requestedBy: { userId: owner.id, name: 'Owner' },
        requestedAt: expect.any(String),
        requestedPosition: expect.any(Number),
        verified: true,
        asked,
        dueAt: null,
        note: null,
        due: null,
        handedBack: [],
        ownersToo: false,
        decisions: [
          {
            decision: 'rejected',
            position: expect.any(Number),
            verified: true,
            userId: bao.id,
            name: 'Bao',
            role: 'reviewer',
            reason: 'Too long',
            at: expect.any(String),
            seen: [{ resultId: first.results[0].id, label: expect.any(String), result: firstText }],
          },
        ],
        status: 'rejected',
        decidedAt: expect.any(String),
        waitedMs: expect.any(Number),
      },
      expect.objectContaining({
        reviewId: secondReview.id,
        asked,
        // Bao's edit voided Ana's approval of the model's text: the review was asked again.
        status: 'withdrawn',
        decisions: [
          expect.objectContaining({
            decision: 'approved',
            name: 'Ana',
            comment: 'Fine by me',
            seen: [expect.objectContaining({ resultId, result: originalText })],
          }),
        ],
      }),
      expect.objectContaining({
        reviewId: thirdReview,
        asked,
        status: 'approved',
        decisions: [
          expect.objectContaining({
            decision: 'approved',
            name: 'Bao',
            comment: null,
            seen: [expect.objectContaining({ resultId, result: 'Tea, in short.' })],
          }),
          expect.objectContaining({
            decision: 'approved',
            name: 'Ana',
            comment: 'Shorter is better',
            // What both approved is the edited text.
            seen: [expect.objectContaining({ resultId, result: 'Tea, in short.' })],
          }),
        ],
      }),
    ]);
    expect(originalText).not.toBe('Tea, in short.');
    const [rejection, , approval] = audit;
    expect(rejection.waitedMs).toBe(Date.parse(rejection.decidedAt) - Date.parse(rejection.requestedAt));
    expect(approval.decidedAt).toBe(approval.decisions[1].at);

    // The owner reads it too; someone outside the workspace finds no such execution.
    expect(ok(await owner.client.get(`/api/executions/${execution.id}/reviews/audit`))).toEqual(audit);
    const outside = await stranger.client.get(`/api/executions/${execution.id}/reviews/audit`);
    expect(outside.statusCode, outside.body).toBe(404);
  });
});

describe('reviews resting on a changed record', () => {
  it('marks a decision recorded at or after the first changed event unverified, and the earlier ones verified', async () => {
    const { owner, ana, bao, execution, runStep } = await blogReviewedBy('2', 'Team 2', 1);
    const first = await runStep();
    ok(await bao.client.post(`/api/reviews/${first.execution.reviews[0].id}/reject`, { reason: 'Too long' }));
    const second = await runStep();
    const pending = second.execution.reviews.find((r: { status: string }) => r.status === 'pending');
    ok(await ana.client.post(`/api/reviews/${pending.id}/approve`, { comment: 'Fine by me' }));

    const before = ok(await owner.client.get(`/api/executions/${execution.id}/reviews/audit`));
    expect(before.map((r: { verified: boolean }) => r.verified)).toEqual([true, true]);
    const approval = before[1].decisions[0];
    expect(approval).toMatchObject({ decision: 'approved', comment: 'Fine by me', verified: true });

    // Ana's approval rewritten in the database, behind the server's back: still readable, no longer proved.
    await t.db.sql`
      UPDATE events SET data = jsonb_set(data, '{comment}', '"Forged"')
      WHERE stream_id = ${`execution-${execution.id}`} AND stream_position = ${approval.position}`;
    const check = ok(await owner.client.get(`/api/executions/${execution.id}/verify`));
    expect(check).toMatchObject({ verified: false, firstBadPosition: approval.position });

    const after = ok(await owner.client.get(`/api/executions/${execution.id}/reviews/audit`));
    const [rejection, approvalReview] = after;
    // Bao's rejection came before the change: it and its review are proved.
    expect(rejection.verified).toBe(true);
    expect(rejection.decisions).toEqual([
      expect.objectContaining({ decision: 'rejected', reason: 'Too long', verified: true }),
    ]);
    expect(rejection.decisions[0].position).toBeLessThan(approval.position);
    // Ana's is told as stored, and marked: nothing proves it.
    expect(approvalReview.verified).toBe(false);
    expect(approvalReview.requestedPosition).toBeLessThan(approval.position);
    expect(approvalReview.decisions).toEqual([
      expect.objectContaining({
        decision: 'approved',
        comment: 'Forged',
        position: approval.position,
        verified: false,
      }),
    ]);
  });
});
