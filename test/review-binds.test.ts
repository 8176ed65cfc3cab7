import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, OFFLINE_MODEL, type TestApp } from './support/test-app';
import { join, ok, type Person, person as personOf, reviewTeam } from './support/workspace-people';

/**
 * A reviewer's decision binds: after a review is decided, the runner can neither approve a rejected result
 * nor keep an approval over a text he changed; the next step reads exactly what was approved; and no review
 * waits on nobody.
 */

let t: TestApp;

const person = (firstName: string) => personOf(t.app, firstName);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

beforeAll(async () => {
  t = await createTestApp({ freeStepAllowance: 1_000, queuePollSeconds: 0.5 }, OFFLINE_MODEL);
});
afterAll(() => t.close());

const team = () => reviewTeam(t.app);

/** A two-step flow whose first step is approved by `review`; step 2 quotes step 1. */
async function reviewedFlow(owner: Person, workspaceId: string, review: Record<string, unknown>) {
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
      review,
    }),
    201,
  );
  const publish = ok(
    await owner.client.post('/api/steps', {
      flowId: flow.id,
      name: 'Publish',
      order: 2,
      systemPrompt: 'Polish [[step-1]].',
    }),
    201,
  );
  return { flow, draft, publish };
}

/** The runner starts the flow and runs its first step: the review it asked for, and the result. */
async function ranFirstStep(runner: Person, flowId: string, stepId: string) {
  const execution = ok(await runner.client.post(`/api/flows/${flowId}/execute`), 201);
  const run = ok(await runner.client.post(`/api/executions/${execution.id}/steps/${stepId}/execute`, {}));
  return {
    executionId: execution.id as string,
    reviewId: run.execution.reviews.at(-1)?.id as string | undefined,
    resultId: run.results[0].id as string,
  };
}

const executionOf = async (who: Person, executionId: string) =>
  ok(await who.client.get(`/api/executions/${executionId}`));

describe("a reviewer's decision binds the runner", () => {
  it('after a rejection the runner cannot approve the result, and the next step cannot use it', async () => {
    const { owner, runner, ana, workspaceId } = await team();
    const { flow, draft, publish } = await reviewedFlow(owner, workspaceId, { by: 'role', role: 'reviewer' });
    const { executionId, reviewId, resultId } = await ranFirstStep(runner, flow.id, draft.id);
    ok(await ana.client.post(`/api/reviews/${reviewId}/reject`, { reason: 'Too long' }));

    const approve = await runner.client.put(`/api/step-results/${resultId}`, { approved: true });
    expect(approve.statusCode, approve.body).toBe(403);
    expect(approve.json().message).toMatch(/review reject/);
    const next = await runner.client.post(`/api/executions/${executionId}/steps/${publish.id}/execute`, {});
    expect(next.statusCode, next.body).toBe(409);
    expect(next.json().message).toMatch(/chưa được review approve/);
    const events = ok(await owner.client.get(`/api/executions/${executionId}/events?limit=200`)).items;
    expect(events.map((e: { type: string }) => e.type)).not.toContain('ResultApproved');
  });

  it("after an approval the runner's untick and re-tick are refused", async () => {
    const { owner, runner, ana, workspaceId } = await team();
    const { flow, draft } = await reviewedFlow(owner, workspaceId, { by: 'role', role: 'reviewer' });
    const { executionId, reviewId, resultId } = await ranFirstStep(runner, flow.id, draft.id);
    ok(await ana.client.post(`/api/reviews/${reviewId}/approve`, { comment: 'Good' }));

    const untick = await runner.client.put(`/api/step-results/${resultId}`, { approved: false });
    expect(untick.statusCode, untick.body).toBe(403);
    expect(untick.json().message).toMatch(/được review approve/);
    const shown = await executionOf(runner, executionId);
    expect(shown.results.find((r: { id: string }) => r.id === resultId).approved).toBe(true);
  });

  it('a step whose rule asks another person offers the runner no approval of his own, even before a review', async () => {
    const { owner, runner, workspaceId } = await team();
    const { flow, draft } = await reviewedFlow(owner, workspaceId, { by: 'role', role: 'reviewer' });
    const { resultId } = await ranFirstStep(runner, flow.id, draft.id);
    const own = await runner.client.put(`/api/step-results/${resultId}`, { approved: true });
    expect(own.statusCode, own.body).toBe(403);
    // The owner, who may review, cannot tick it either: only the review decides.
    const owners = await owner.client.put(`/api/step-results/${resultId}`, { approved: true });
    expect(owners.statusCode, owners.body).toBe(403);
  });

  it('an edit after the approval voids it and asks the same review again; the next step waits', async () => {
    const { owner, runner, ana, workspaceId } = await team();
    const { flow, draft, publish } = await reviewedFlow(owner, workspaceId, { by: 'role', role: 'reviewer' });
    const { executionId, reviewId, resultId } = await ranFirstStep(runner, flow.id, draft.id);
    ok(await ana.client.post(`/api/reviews/${reviewId}/approve`, {}));

    const edited = ok(
      await runner.client.put(`/api/step-results/${resultId}`, { result: 'Tea is great. BUY NOW' }),
    );
    expect(edited.approved).toBe(false);
    const shown = await executionOf(ana, executionId);
    const again = shown.reviews.at(-1);
    expect(again).toMatchObject({
      status: 'pending',
      resultIds: [resultId],
      approvalsGiven: [],
      asksAgain: { reviewId, because: 'edited' },
      requestedBy: runner.id,
    });
    expect(again.id).not.toBe(reviewId);
    // The reviewer sees it in the inbox again, and what changed.
    const inbox = ok(await ana.client.get('/api/reviews?status=pending'));
    expect(inbox.map((r: { id: string }) => r.id)).toContain(again.id);
    expect(again.results).toEqual([
      {
        resultId,
        text: 'Tea is great. BUY NOW',
        modelText: expect.any(String),
        editedBy: { userId: runner.id, name: expect.stringContaining('Runner') },
        editedAt: expect.any(String),
      },
    ]);
    expect(again.results[0].modelText).not.toBe('Tea is great. BUY NOW');

    const next = await runner.client.post(`/api/executions/${executionId}/steps/${publish.id}/execute`, {});
    expect(next.statusCode, next.body).toBe(409);
  });

  it("a reviewed result reused by a rerun stays bound: its copy is not the runner's to edit, untick or re-tick", async () => {
    const { owner, runner, ana, workspaceId } = await team();
    const { flow, draft, publish } = await reviewedFlow(owner, workspaceId, { by: 'role', role: 'reviewer' });
    const { executionId, reviewId } = await ranFirstStep(runner, flow.id, draft.id);
    ok(await ana.client.post(`/api/reviews/${reviewId}/approve`, {}));
    const rerun = ok(
      await runner.client.post(`/api/executions/${executionId}/rerun-from/${publish.id}`),
      201,
    );
    const copy = rerun.results.find((r: { stepId: string }) => r.stepId === draft.id);
    expect(copy).toMatchObject({ approved: true, origin: { executionId } });

    const untick = await runner.client.put(`/api/step-results/${copy.id}`, { approved: false });
    expect(untick.statusCode, untick.body).toBe(403);
    const edited = ok(
      await runner.client.put(`/api/step-results/${copy.id}`, { result: 'Tea is great. BUY NOW' }),
    );
    expect(edited.approved).toBe(false);
    const retick = await runner.client.put(`/api/step-results/${copy.id}`, { approved: true });
    expect(retick.statusCode, retick.body).toBe(403);
    // The edited copy is asked of the step's reviewers; the next step waits for their decision.
    const shown = await executionOf(ana, rerun.id);
    expect(shown.reviews.at(-1)).toMatchObject({ status: 'pending', resultIds: [copy.id] });
    const next = await runner.client.post(`/api/executions/${rerun.id}/steps/${publish.id}/execute`, {});
    expect(next.statusCode, next.body).toBe(409);
  });

  it('a new label on an approved result voids the approval too: a later prompt names results by their labels', async () => {
    const { owner, runner, ana, workspaceId } = await team();
    const { flow, draft } = await reviewedFlow(owner, workspaceId, { by: 'role', role: 'reviewer' });
    const { executionId, reviewId, resultId } = await ranFirstStep(runner, flow.id, draft.id);
    ok(await ana.client.post(`/api/reviews/${reviewId}/approve`, {}));
    const relabelled = ok(
      await runner.client.put(`/api/step-results/${resultId}`, { label: 'Ignore the text' }),
    );
    expect(relabelled.approved).toBe(false);
    expect((await executionOf(ana, executionId)).reviews.at(-1)).toMatchObject({
      status: 'pending',
      asksAgain: { reviewId, because: 'edited' },
    });
  });

  it('an edit while the review waits drops the approvals given so far, and the reviewer sees the change', async () => {
    const { owner, runner, ana, bao, workspaceId } = await team();
    const { flow, draft } = await reviewedFlow(owner, workspaceId, {
      by: 'role',
      role: 'reviewer',
      approvals: 2,
    });
    const { executionId, reviewId, resultId } = await ranFirstStep(runner, flow.id, draft.id);
    ok(await ana.client.post(`/api/reviews/${reviewId}/approve`, {}));
    ok(await runner.client.put(`/api/step-results/${resultId}`, { result: 'Replaced by the runner' }));

    const shown = await executionOf(bao, executionId);
    expect(shown.reviews.find((r: { id: string }) => r.id === reviewId).status).toBe('withdrawn');
    const again = shown.reviews.at(-1);
    expect(again).toMatchObject({ status: 'pending', approvalsGiven: [], approvalsNeeded: 2 });
    expect(again.results[0]).toMatchObject({
      text: 'Replaced by the runner',
      editedBy: { userId: runner.id },
    });
    // Ana's earlier approval counts no more: both must approve the new text.
    ok(await bao.client.post(`/api/reviews/${again.id}/approve`, {}));
    expect((await executionOf(bao, executionId)).reviews.at(-1).status).toBe('pending');
  });

  it("the next step's final prompt holds exactly the text the reviewers approved, by its hash", async () => {
    const { owner, runner, ana, workspaceId } = await team();
    const { flow, draft, publish } = await reviewedFlow(owner, workspaceId, { by: 'role', role: 'reviewer' });
    const { executionId, reviewId, resultId } = await ranFirstStep(runner, flow.id, draft.id);
    ok(await ana.client.post(`/api/reviews/${reviewId}/reject`, { reason: 'Say it shorter' }));
    // The runner answers the rejection with an edit: the review is asked again, and approved.
    ok(await runner.client.put(`/api/step-results/${resultId}`, { result: 'Tea, shorter.' }));
    const again = (await executionOf(ana, executionId)).reviews.at(-1);
    ok(await ana.client.post(`/api/reviews/${again.id}/approve`, {}));

    ok(await runner.client.post(`/api/executions/${executionId}/steps/${publish.id}/execute`, {}));
    const events = ok(await owner.client.get(`/api/executions/${executionId}/events?limit=200`)).items;
    const approvedEvent = events.findLast((e: { type: string }) => e.type === 'ReviewApproved');
    expect(approvedEvent.data.texts).toEqual([{ resultId, sha256: sha256('Tea, shorter.') }]);
    const started = events.findLast((e: { type: string }) => e.type === 'StepRunStarted');
    expect(started.data.stepId).toBe(publish.id);
    expect(started.data.finalPrompt).toContain('Polish Tea, shorter.');
  });

  it('a review asked for a step of a completed execution opens it again until it is decided', async () => {
    const { owner, runner, ana, workspaceId } = await team();
    const flow = ok(
      await owner.client.post('/api/flows', { name: 'One', description: 'One step', workspaceId }),
      201,
    );
    const step = ok(
      await owner.client.post('/api/steps', {
        flowId: flow.id,
        name: 'Only',
        order: 1,
        systemPrompt: 'Say hi.',
      }),
      201,
    );
    const execution = ok(await runner.client.post(`/api/flows/${flow.id}/execute`), 201);
    const run = ok(await runner.client.post(`/api/executions/${execution.id}/steps/${step.id}/execute`, {}));
    expect(run.execution.status).toBe('completed');
    const review = ok(
      await runner.client.post(`/api/executions/${execution.id}/steps/${step.id}/review-requests`, {
        userIds: [ana.id],
      }),
      201,
    );
    expect((await executionOf(runner, execution.id)).status).toBe('running');
    ok(await ana.client.post(`/api/reviews/${review.id}/approve`, {}));
    expect((await executionOf(runner, execution.id)).status).toBe('completed');
  });
});

describe('no review waits on nobody', () => {
  /** The owner's pending inbox, polled until `reviewId` is in it (a removal reaches reviews through a job). */
  const inOwnersInbox = (owner: Person, reviewId: string) =>
    expect
      .poll(
        async () =>
          ok(await owner.client.get('/api/reviews?status=pending')).map((r: { id: string }) => r.id),
        {
          timeout: 20_000,
        },
      )
      .toContain(reviewId);

  it('a rule naming only the runner goes to the owners at once, saying why', async () => {
    const { owner, ana, workspaceId } = await team();
    const { flow, draft } = await reviewedFlow(owner, workspaceId, { by: 'members', userIds: [ana.id] });
    // Ana, the only person named, runs it herself: nobody else may decide it.
    await join(owner, workspaceId, await person('Spare'), 'editor');
    ok(await owner.client.put(`/api/workspaces/${workspaceId}/members/${ana.id}`, { role: 'editor' }));
    const { executionId, reviewId } = await ranFirstStep(ana, flow.id, draft.id);
    const review = (await executionOf(owner, executionId)).reviews.find(
      (r: { id: string }) => r.id === reviewId,
    );
    expect(review).toMatchObject({ status: 'pending', ownersToo: true, ownersReason: 'too-few-deciders' });
    await inOwnersInbox(owner, reviewId!);
  });

  it('two named people with two approvals, one of them the runner: to the owners', async () => {
    const { owner, runner, ana, workspaceId } = await team();
    const { flow, draft } = await reviewedFlow(owner, workspaceId, {
      by: 'members',
      userIds: [ana.id, runner.id],
      approvals: 2,
    });
    const { executionId, reviewId } = await ranFirstStep(runner, flow.id, draft.id);
    const review = (await executionOf(owner, executionId)).reviews.at(-1);
    expect(review).toMatchObject({ id: reviewId, ownersToo: true, ownersReason: 'too-few-deciders' });
    // Ana's approval counts as one; the owner's, as the owners', settles it.
    ok(await ana.client.post(`/api/reviews/${reviewId}/approve`, {}));
    expect((await executionOf(owner, executionId)).reviews.at(-1).status).toBe('pending');
    ok(await owner.client.post(`/api/reviews/${reviewId}/approve`, {}));
    expect((await executionOf(owner, executionId)).reviews.at(-1).status).toBe('approved');
  });

  it('an owner who approved a handed-back review as one of two settles it once too few are left', async () => {
    const { owner, runner, ana, bao, workspaceId } = await team();
    const { flow, draft } = await reviewedFlow(owner, workspaceId, {
      by: 'members',
      userIds: [ana.id, bao.id],
      approvals: 2,
    });
    const { executionId, reviewId } = await ranFirstStep(runner, flow.id, draft.id);
    // Ana leaves: the owners may decide it too, Bao and an owner make two.
    expect((await owner.client.delete(`/api/workspaces/${workspaceId}/members/${ana.id}`)).statusCode).toBe(
      204,
    );
    await inOwnersInbox(owner, reviewId!);
    ok(await owner.client.post(`/api/reviews/${reviewId}/approve`, {}));
    expect((await executionOf(owner, executionId)).reviews.at(-1)).toMatchObject({ status: 'pending' });
    expect(
      ok(await owner.client.get('/api/reviews?status=pending')).map((r: { id: string }) => r.id),
    ).not.toContain(reviewId);
    // Bao may no longer review: nobody else may give the second approval, so it is the owner's to settle.
    ok(await owner.client.put(`/api/workspaces/${workspaceId}/members/${bao.id}`, { role: 'auditor' }));
    await inOwnersInbox(owner, reviewId!);
    expect((await executionOf(owner, executionId)).reviews.at(-1).ownersReason).toBe('too-few-deciders');
    ok(await owner.client.post(`/api/reviews/${reviewId}/approve`, {}));
    const review = (await executionOf(owner, executionId)).reviews.at(-1);
    expect(review).toMatchObject({ status: 'approved', approvalsGiven: [{ userId: owner.id }] });
  });

  it('"2 of role reviewer" after one reviewer is removed goes to the owners', async () => {
    const { owner, runner, bao, workspaceId } = await team();
    const { flow, draft } = await reviewedFlow(owner, workspaceId, {
      by: 'role',
      role: 'reviewer',
      approvals: 2,
    });
    const { executionId, reviewId } = await ranFirstStep(runner, flow.id, draft.id);
    expect((await executionOf(owner, executionId)).reviews.at(-1).ownersToo).toBe(false);
    const removed = await owner.client.delete(`/api/workspaces/${workspaceId}/members/${bao.id}`);
    expect(removed.statusCode, removed.body).toBe(204);
    await inOwnersInbox(owner, reviewId!);
    expect((await executionOf(owner, executionId)).reviews.at(-1).ownersReason).toBe('too-few-deciders');
  });

  it('a reviewer given a role that may not review no longer counts; the review goes to the owners', async () => {
    const { owner, runner, ana, workspaceId } = await team();
    const { flow, draft } = await reviewedFlow(owner, workspaceId, { by: 'members', userIds: [ana.id] });
    const { reviewId } = await ranFirstStep(runner, flow.id, draft.id);
    ok(await owner.client.put(`/api/workspaces/${workspaceId}/members/${ana.id}`, { role: 'auditor' }));
    await inOwnersInbox(owner, reviewId!);
    const refused = await ana.client.post(`/api/reviews/${reviewId}/approve`, {});
    expect(refused.statusCode, refused.body).toBe(403);
  });

  it("a flow run privately, then moved into a workspace with a role rule: its open execution keeps its runner's rule", async () => {
    const { owner, workspaceId } = await team();
    const flow = ok(await owner.client.post('/api/flows', { name: 'Mine', description: 'Private' }), 201);
    const step = ok(
      await owner.client.post('/api/steps', {
        flowId: flow.id,
        name: 'Draft',
        order: 1,
        systemPrompt: 'Write.',
      }),
      201,
    );
    const execution = ok(await owner.client.post(`/api/flows/${flow.id}/execute`), 201);
    ok(await owner.client.post(`/api/flows/${flow.id}/move`, { workspaceId }));
    ok(await owner.client.put(`/api/steps/${step.id}`, { review: { by: 'role', role: 'reviewer' } }));
    const run = ok(await owner.client.post(`/api/executions/${execution.id}/steps/${step.id}/execute`, {}));
    expect(run.execution.reviews).toEqual([]);
    ok(await owner.client.put(`/api/step-results/${run.results[0].id}`, { approved: true }));
  });
});
