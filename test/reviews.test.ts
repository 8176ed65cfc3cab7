import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_MESSAGES } from '../src/domain/execution/reviews';
import { createTestApp, OFFLINE_MODEL, type TestApp } from './support/test-app';
import { join, newWorkspace, ok, person as personOf } from './support/workspace-people';

/**
 * A step's review by another person, through the API: a step assigned to the workspace's reviewers makes
 * its execution wait; the runner cannot approve it; a reviewer sees it in their inbox, rejects it with a
 * reason, the runner runs it again, and two reviewers approve it before the run goes on.
 */

let t: TestApp;

const person = (firstName: string) => personOf(t.app, firstName);

beforeAll(async () => {
  t = await createTestApp({ freeStepAllowance: 1_000 }, OFFLINE_MODEL);
});
afterAll(() => t.close());

describe('a step reviewed by another person', () => {
  it('waits for the reviewers: the runner cannot approve, a rejection sends it back, two approvals let the run go on', async () => {
    const owner = await person('Owner');
    const runner = await person('Runner');
    const ana = await person('Ana');
    const bao = await person('Bao');
    const auditor = await person('Audit');
    const { id: workspaceId } = await newWorkspace(owner);
    await join(owner, workspaceId, runner, 'editor');
    await join(owner, workspaceId, ana, 'reviewer');
    await join(owner, workspaceId, bao, 'reviewer');
    await join(owner, workspaceId, auditor, 'auditor');

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
        review: { by: 'role', role: 'reviewer', approvals: 2, dueInHours: 48, onDue: 'remind' },
      }),
      201,
    );
    expect(draft.review).toEqual({
      by: 'role',
      role: 'reviewer',
      approvals: 2,
      selfApproval: false,
      dueInHours: 48,
      onDue: 'remind',
    });
    const publish = ok(
      await owner.client.post('/api/steps', {
        flowId: flow.id,
        name: 'Publish',
        order: 2,
        systemPrompt: 'Polish [[step-1]].',
      }),
      201,
    );

    // The runner runs the step: the execution waits for review.
    const execution = ok(await runner.client.post(`/api/flows/${flow.id}/execute`), 201);
    const run = ok(
      await runner.client.post(`/api/executions/${execution.id}/steps/${draft.id}/execute`, {
        userInput: 'green tea',
      }),
    );
    expect(run.execution.reviews).toMatchObject([
      {
        stepId: draft.id,
        status: 'pending',
        approvalsNeeded: 2,
        approvalsGiven: [],
        by: 'role',
        role: 'reviewer',
        requestedBy: runner.id,
      },
    ]);
    expect(run.execution.status).toBe('running');
    const reviewId = run.execution.reviews[0].id as string;
    const resultId = run.results[0].id as string;
    expect(run.execution.reviews[0].dueAt).not.toBeNull();
    const shown = ok(await runner.client.get(`/api/executions/${execution.id}`));
    expect(shown.reviews[0]).toMatchObject({ id: reviewId, status: 'pending' });

    // The runner's own approval is refused, with a message; the next step waits too.
    const own = await runner.client.put(`/api/step-results/${resultId}`, { approved: true });
    expect(own.statusCode, own.body).toBe(403);
    expect(own.json().message).toMatch(/đang chờ review/);
    const ownReview = await runner.client.post(`/api/reviews/${reviewId}/approve`, {});
    expect(ownReview.statusCode, ownReview.body).toBe(403);
    const early = await runner.client.post(`/api/executions/${execution.id}/steps/${publish.id}/execute`, {});
    expect(early.statusCode, early.body).toBe(409);

    // The reviewers see it in their inbox; the runner and the auditor do not.
    const inbox = ok(await ana.client.get('/api/reviews?status=pending'));
    expect(inbox).toEqual([
      expect.objectContaining({
        id: reviewId,
        executionId: execution.id,
        flowId: flow.id,
        stepId: draft.id,
        flowName: 'Blog',
        stepName: 'Draft',
        requestedBy: { userId: runner.id, name: expect.stringContaining('Runner') },
        approvalsNeeded: 2,
        approvalsGiven: [],
        status: 'pending',
      }),
    ]);
    expect(ok(await runner.client.get('/api/reviews'))).toEqual([]);
    expect(ok(await auditor.client.get('/api/reviews'))).toEqual([]);
    const auditorDecides = await auditor.client.post(`/api/reviews/${reviewId}/approve`, {});
    expect(auditorDecides.statusCode, auditorDecides.body).toBe(403);
    // An editor is no reviewer: the rule names the reviewer role.
    const ownerDecides = await owner.client.post(`/api/reviews/${reviewId}/approve`, {});
    expect(ownerDecides.statusCode, ownerDecides.body).toBe(403);
    expect(ownerDecides.json().message).toMatch(/vai trò reviewer/);

    // A rejection needs a reason; with one, the step goes back to the runner.
    expect((await ana.client.post(`/api/reviews/${reviewId}/reject`, {})).statusCode).toBe(400);
    // Without a body at all, the refusal still says what is missing.
    const bare = await ana.client.post(`/api/reviews/${reviewId}/reject`);
    expect(bare.statusCode, bare.body).toBe(400);
    expect(bare.json().message).toBe(`reason: ${REVIEW_MESSAGES.reasonRequired}`);
    const rejected = ok(
      await ana.client.post(`/api/reviews/${reviewId}/reject`, { reason: 'Too long, cut it in half' }),
    );
    expect(rejected).toMatchObject({
      status: 'rejected',
      rejection: { userId: ana.id, role: 'reviewer', reason: 'Too long, cut it in half' },
    });
    const again = await bao.client.post(`/api/reviews/${reviewId}/approve`, {});
    expect(again.statusCode, again.body).toBe(409);
    expect(ok(await ana.client.get('/api/reviews?status=done'))).toMatchObject([
      { id: reviewId, status: 'rejected' },
    ]);
    expect(ok(await ana.client.get('/api/reviews?status=pending'))).toEqual([]);
    const after = ok(await runner.client.get(`/api/executions/${execution.id}`));
    expect(after.results.find((r: { id: string }) => r.id === resultId).approved).toBe(false);

    // The runner runs it again: a new review; two distinct reviewers approve it (the same one twice counts once).
    const rerun = ok(
      await runner.client.post(`/api/executions/${execution.id}/steps/${draft.id}/execute`, {
        userInput: 'shorter',
      }),
    );
    const second = rerun.execution.reviews.find((r: { status: string }) => r.status === 'pending');
    expect(second).toBeDefined();
    const newResult = rerun.results[0].id as string;
    const firstApproval = ok(
      await ana.client.post(`/api/reviews/${second.id}/approve`, { comment: 'Better' }),
    );
    expect(firstApproval).toMatchObject({
      status: 'pending',
      approvalsGiven: [{ userId: ana.id, comment: 'Better' }],
    });
    // Approved by Ana, it waits for Bao only: out of Ana's pending inbox, in her done one.
    expect(ok(await ana.client.get('/api/reviews?status=pending'))).toEqual([]);
    expect(ok(await ana.client.get('/api/reviews?status=done'))).toMatchObject([
      { id: second.id, status: 'pending' },
      { status: 'rejected' },
    ]);
    expect(ok(await bao.client.get('/api/reviews?status=pending'))).toMatchObject([{ id: second.id }]);
    const twice = ok(await ana.client.post(`/api/reviews/${second.id}/approve`, {}));
    expect(twice.approvalsGiven).toHaveLength(1);
    const approved = ok(await bao.client.post(`/api/reviews/${second.id}/approve`, {}));
    expect(approved).toMatchObject({ status: 'approved' });
    expect(approved.approvalsGiven.map((a: { userId: string }) => a.userId)).toEqual([ana.id, bao.id]);

    // The results are approved and the run goes on.
    const done = ok(await runner.client.get(`/api/executions/${execution.id}`));
    expect(done.results.find((r: { id: string }) => r.id === newResult).approved).toBe(true);
    const next = ok(
      await runner.client.post(`/api/executions/${execution.id}/steps/${publish.id}/execute`, {}),
    );
    expect(next.execution.status).toBe('completed');
    expect(ok(await bao.client.get('/api/reviews?status=done&limit=1')).items).toMatchObject([
      { id: second.id, status: 'approved' },
    ]);

    // The history tells each review: who was asked, who decided, with the reason.
    const history = ok(await auditor.client.get(`/api/executions/${execution.id}/events`));
    const types = (Array.isArray(history) ? history : history.items).map((e: { type: string }) => e.type);
    expect(types).toEqual(expect.arrayContaining(['ReviewRequested', 'ReviewRejected', 'ReviewApproved']));
  });

  it('refuses members or a role on a flow outside a workspace, with a message; the runner rule is as before', async () => {
    const solo = await person('Solo');
    const flow = ok(await solo.client.post('/api/flows', { name: 'Mine', description: 'Mine' }), 201);
    const refused = await solo.client.post('/api/steps', {
      flowId: flow.id,
      name: 'Draft',
      order: 1,
      review: { by: 'role', role: 'reviewer' },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().message).toMatch(/workspace/);
    const bad = await solo.client.post('/api/steps', {
      flowId: flow.id,
      name: 'Draft',
      order: 1,
      review: { by: 'members' },
    });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json().message).toMatch(/userIds/);
    const step = ok(
      await solo.client.post('/api/steps', {
        flowId: flow.id,
        name: 'Draft',
        order: 1,
        review: { by: 'runner' },
      }),
      201,
    );
    expect(step.review).toEqual({ by: 'runner', approvals: 1, selfApproval: true });
    const execution = ok(await solo.client.post(`/api/flows/${flow.id}/execute`), 201);
    const run = ok(await solo.client.post(`/api/executions/${execution.id}/steps/${step.id}/execute`, {}));
    expect(run.execution.reviews).toEqual([]);
    ok(await solo.client.put(`/api/step-results/${run.results[0].id}`, { approved: true }));
    const asked = await solo.client.post(`/api/executions/${execution.id}/steps/${step.id}/review-requests`, {
      role: 'reviewer',
    });
    expect(asked.statusCode, asked.body).toBe(400);
  });

  it('lets the runner ask named members for review, and carries the rule through export and import', async () => {
    const owner = await person('Lead');
    const ana = await person('Anh');
    const { id: workspaceId } = await newWorkspace(owner, 'Named');
    await join(owner, workspaceId, ana, 'reviewer');
    const flow = ok(
      await owner.client.post('/api/flows', { name: 'Named', description: 'Named', workspaceId }),
      201,
    );
    const step = ok(
      await owner.client.post('/api/steps', {
        flowId: flow.id,
        name: 'Plan',
        order: 1,
        systemPrompt: 'Plan a trip.',
      }),
      201,
    );
    const execution = ok(await owner.client.post(`/api/flows/${flow.id}/execute`), 201);
    ok(await owner.client.post(`/api/executions/${execution.id}/steps/${step.id}/execute`, {}));
    const past = await owner.client.post(`/api/executions/${execution.id}/steps/${step.id}/review-requests`, {
      userIds: [ana.id],
      dueAt: '2001-01-01T00:00:00Z',
    });
    expect(past.statusCode, past.body).toBe(400);
    // Someone who is not a member of the workspace cannot be asked, nor more people of a role than it has.
    const stranger = await person('Khách');
    const notMember = await owner.client.post(
      `/api/executions/${execution.id}/steps/${step.id}/review-requests`,
      {
        userIds: [stranger.id],
      },
    );
    expect(notMember.statusCode, notMember.body).toBe(400);
    expect(notMember.json().detail).toBe(REVIEW_MESSAGES.notAReviewer);
    const tooMany = await owner.client.post(
      `/api/executions/${execution.id}/steps/${step.id}/review-requests`,
      {
        role: 'reviewer',
        approvals: 2,
      },
    );
    expect(tooMany.statusCode, tooMany.body).toBe(400);
    const dueAt = new Date(Date.now() + 3_600_000).toISOString();
    const body = { userIds: [ana.id], dueAt, onDue: 'escalate', note: 'Please check the dates' };
    const once = { 'idempotency-key': `review-request-${Date.now()}` };
    const url = `/api/executions/${execution.id}/steps/${step.id}/review-requests`;
    const review = ok(await owner.client.post(url, body, once), 201);
    // Sent again with its key, the request answers the review it made; a request without one is a 409.
    expect(ok(await owner.client.post(url, body, once), 201)).toEqual(review);
    expect((await owner.client.post(url, body)).statusCode).toBe(409);
    expect(review).toMatchObject({
      status: 'pending',
      by: 'members',
      userIds: [ana.id],
      dueAt,
      note: 'Please check the dates',
    });
    expect(ok(await ana.client.get('/api/reviews'))).toMatchObject([{ id: review.id }]);
    ok(await ana.client.post(`/api/reviews/${review.id}/approve`, {}));

    // The rule travels with the flow's JSON, and import into a workspace keeps it.
    const edited = ok(
      await owner.client.put(`/api/steps/${step.id}`, {
        review: { by: 'members', userIds: [ana.id], selfApproval: false },
      }),
    );
    expect(edited.review).toEqual({ by: 'members', userIds: [ana.id], approvals: 1, selfApproval: false });
    const exported = ok(await owner.client.get(`/api/flows/${flow.id}/export`));
    expect(exported.workflow.steps[0].review).toEqual(edited.review);
    const imported = ok(
      await owner.client.post('/api/ai/create-from-json', { workflowJSON: exported.workflow, workspaceId }),
      201,
    );
    const steps = ok(await owner.client.get(`/api/flows/${imported.id}/steps`));
    expect(steps[0].review).toEqual(edited.review);
  });
});
