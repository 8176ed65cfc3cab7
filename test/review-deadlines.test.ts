import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REVIEW_MAIL_QUEUE } from '../src/api/executions/review-notices';
import { JobQueue } from '../src/api/notifications/job-queue';
import { MAIL_QUEUE } from '../src/api/notifications/notifications';
import { type Mailbox, mailbox } from './support/mailbox';
import { anotherInstance, createTestApp, OFFLINE_MODEL, type TestApp } from './support/test-app';
import { receiver } from './support/webhook-receiver';
import { ok, type Person, type ReviewTeam, reviewTeam } from './support/workspace-people';

/**
 * A review's due time, its mails and what happens when its people or its execution change, through the API
 * with a real SMTP server and a local webhook receiver: a review due in a moment fires once, reminding,
 * escalating to the owners or expiring back to the runner; each mail reaches the people it concerns with a
 * link to the step.
 */

const offline = OFFLINE_MODEL;

/** How far ahead a review in these tests is due: the least time in which its request is surely answered. */
const DUE_IN_MS = 4_000;
const WAIT = { timeout: 30_000, interval: 100 };

let t: TestApp;
let box: Mailbox;
let hooks: Awaited<ReturnType<typeof receiver>>;
let hookSecret = '';

beforeAll(async () => {
  box = await mailbox();
  hooks = await receiver(() => hookSecret, { failFirst: false });
  t = await createTestApp(
    { smtpUrl: box.url, freeStepAllowance: 1_000, webhookHosts: [hooks.host], queuePollSeconds: 0.5 },
    offline,
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
  await box?.close();
  await hooks?.close();
});

const team = (name: string) => reviewTeam(t.app, name);

/** A two-step flow of the workspace whose first step the runner has run: the execution and the steps. */
async function ranFirstStep({ owner, runner, workspaceId }: ReviewTeam) {
  const flow = ok(
    await owner.client.post('/api/flows', { name: 'Launch', description: 'Plan', workspaceId }),
    201,
  );
  const steps = [];
  for (const [order, name] of [
    [1, 'Draft'],
    [2, 'Publish'],
  ] as const) {
    steps.push(
      ok(
        await owner.client.post('/api/steps', {
          flowId: flow.id,
          name,
          order,
          systemPrompt: order === 1 ? 'Write a plan.' : 'Polish [[step-1]].',
        }),
        201,
      ),
    );
  }
  const execution = ok(await runner.client.post(`/api/flows/${flow.id}/execute`), 201);
  ok(
    await runner.client.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`, {
      userInput: 'go',
    }),
  );
  return {
    flowId: flow.id as string,
    executionId: execution.id as string,
    draft: steps[0].id as string,
    publish: steps[1].id as string,
  };
}

/** The runner asks for review of the first step, due in a moment. */
async function askReview(runner: Person, executionId: string, stepId: string, body: Record<string, unknown>) {
  return ok(
    await runner.client.post(`/api/executions/${executionId}/steps/${stepId}/review-requests`, {
      dueAt: new Date(Date.now() + DUE_IN_MS).toISOString(),
      ...body,
    }),
    201,
  );
}

/** The runner runs the step again: it is theirs once more. */
const runAgain = async (runner: Person, executionId: string, stepId: string) =>
  ok(
    await runner.client.post(`/api/executions/${executionId}/steps/${stepId}/execute`, {
      userInput: 'again',
    }),
  );

/** The mails to `address` about reviews (its workspace's invitation left out). */
const reviewMails = (address: string) =>
  box.to(address).filter((mail) => !mail.subject?.startsWith('Lời mời'));

const reviewOf = async (client: Person['client'], executionId: string, reviewId: string) =>
  (ok(await client.get(`/api/executions/${executionId}`)).reviews as { id: string }[]).find(
    (r) => r.id === reviewId,
  ) as Record<string, unknown>;

/** Waits for the review's due time to have fired, and answers the review then. */
const fired = (client: Person['client'], executionId: string, reviewId: string) =>
  vi.waitFor(async () => {
    const review = await reviewOf(client, executionId, reviewId);
    expect(review.due).not.toBeNull();
    return review;
  }, WAIT);

const dueEvents = async (executionId: string) =>
  t.db
    .sql`SELECT data FROM events WHERE stream_id = ${`execution-${executionId}`} AND event_type = 'ReviewDue'`;

describe("a review's due time", () => {
  it('remind: mails the reviewers again once, posts a signed review.due, and the review still waits', async () => {
    const people = await team('Remind');
    const hook = ok(
      await people.owner.client.post(`/api/workspaces/${people.workspaceId}/webhooks`, {
        url: `http://${hooks.host}/hook`,
        events: ['review.due'],
      }),
      201,
    );
    hookSecret = hook.secret;
    const { executionId, draft } = await ranFirstStep(people);
    const review = await askReview(people.runner, executionId, draft, {
      userIds: [people.ana.id, people.bao.id],
      onDue: 'remind',
      note: 'Check the budget',
    });

    // The request is mailed to both named reviewers, with the note and a link to the step.
    await vi.waitFor(() => {
      expect(reviewMails(people.ana.email)).toHaveLength(1);
      expect(reviewMails(people.bao.email)).toHaveLength(1);
    }, WAIT);
    const [asked] = reviewMails(people.ana.email);
    expect(asked!.subject).toContain('Cần bạn duyệt: Draft · Launch');
    expect(asked!.text).toContain('Check the budget');
    expect(asked!.text).toContain(`http://workbench.test/flows/`);
    expect(asked!.text).toContain(`execution=${executionId}&step=${draft}`);

    const due = await fired(people.runner.client, executionId, review.id);
    expect(due).toMatchObject({ status: 'pending', due: { onDue: 'remind' }, ownersToo: false });
    await vi.waitFor(() => expect(reviewMails(people.ana.email)).toHaveLength(2), WAIT);
    expect(reviewMails(people.ana.email)[1]!.subject).toContain('Nhắc: Draft · Launch vẫn chờ duyệt');
    await vi.waitFor(() => expect(reviewMails(people.bao.email)).toHaveLength(2), WAIT);

    await vi.waitFor(() => expect(hooks.deliveries.length).toBeGreaterThan(0), WAIT);
    const delivery = hooks.deliveries
      .map((d) => ({ ...d, json: JSON.parse(d.body) }))
      .find((d) => d.json.data.reviewId === review.id);
    expect(delivery?.valid).toBe(true);
    expect(delivery?.json).toMatchObject({
      type: 'review.due',
      data: {
        workspaceId: people.workspaceId,
        executionId,
        reviewId: review.id,
        onDue: 'remind',
        review: { reviewId: review.id, status: 'pending' },
      },
    });
    expect(await dueEvents(executionId)).toHaveLength(1);
    // Still Ana's to decide.
    ok(await people.ana.client.post(`/api/reviews/${review.id}/approve`, {}));
  });

  it("escalate: the workspace's owners may decide it once it is due, and are mailed", async () => {
    const people = await team('Escalate');
    const { executionId, draft } = await ranFirstStep(people);
    const review = await askReview(people.runner, executionId, draft, {
      userIds: [people.ana.id],
      onDue: 'escalate',
    });
    expect((await people.owner.client.post(`/api/reviews/${review.id}/approve`, {})).statusCode).toBe(403);

    const due = await fired(people.owner.client, executionId, review.id);
    expect(due).toMatchObject({ status: 'pending', ownersToo: true });
    await vi.waitFor(
      () =>
        expect(reviewMails(people.owner.email).some((m) => m.subject?.includes('Chuyển lên owner'))).toBe(
          true,
        ),
      WAIT,
    );
    const inbox = ok(await people.owner.client.get('/api/reviews?status=pending'));
    expect(inbox.map((r: { id: string }) => r.id)).toContain(review.id);
    ok(await people.owner.client.post(`/api/reviews/${review.id}/approve`, { comment: 'Taking it' }));
    expect(await reviewOf(people.runner.client, executionId, review.id)).toMatchObject({
      status: 'approved',
    });
  });

  it('fail: the review expires, the runner is mailed, and the step can run again', async () => {
    const people = await team('Expire');
    const { executionId, draft } = await ranFirstStep(people);
    const review = await askReview(people.runner, executionId, draft, { role: 'reviewer', onDue: 'fail' });
    const due = await fired(people.runner.client, executionId, review.id);
    expect(due).toMatchObject({ status: 'expired', due: { onDue: 'fail' } });
    expect((await people.ana.client.post(`/api/reviews/${review.id}/approve`, {})).statusCode).toBe(409);
    const done = ok(await people.ana.client.get('/api/reviews?status=done'));
    expect(done.find((r: { id: string }) => r.id === review.id)).toMatchObject({ status: 'expired' });
    await vi.waitFor(
      () =>
        expect(
          reviewMails(people.runner.email).some((m) => m.subject?.startsWith('Hết hạn duyệt: Draft')),
        ).toBe(true),
      WAIT,
    );
    await runAgain(people.runner, executionId, draft);
  });
});

describe('a review when its people or its execution change', () => {
  it('a rejection mails the runner the reason, with the link to the step', async () => {
    const people = await team('Reject');
    const { executionId, draft } = await ranFirstStep(people);
    const review = ok(
      await people.runner.client.post(`/api/executions/${executionId}/steps/${draft}/review-requests`, {
        userIds: [people.ana.id],
      }),
      201,
    );
    ok(await people.ana.client.post(`/api/reviews/${review.id}/reject`, { reason: 'Numbers are off' }));
    await vi.waitFor(() => expect(reviewMails(people.runner.email)).toHaveLength(1), WAIT);
    const [mail] = reviewMails(people.runner.email);
    expect(mail!.subject).toBe('Bị từ chối: Draft · Launch');
    expect(mail!.text).toContain('Numbers are off');
    expect(mail!.text).toContain('Ana Reject');
    expect(mail!.text).toContain(`execution=${executionId}&step=${draft}`);
  });

  it('a runner removed from the workspace is not mailed the decision: they may no longer read the run', async () => {
    const people = await team('Gone');
    const { executionId, draft } = await ranFirstStep(people);
    const review = ok(
      await people.runner.client.post(`/api/executions/${executionId}/steps/${draft}/review-requests`, {
        userIds: [people.ana.id],
      }),
      201,
    );
    const removed = await people.owner.client.delete(
      `/api/workspaces/${people.workspaceId}/members/${people.runner.id}`,
    );
    expect(removed.statusCode, removed.body).toBe(204);
    ok(await people.ana.client.post(`/api/reviews/${review.id}/reject`, { reason: 'Secret numbers' }));
    // The decision's mail job has done its work: it queued no mail for the one who left.
    const eventId = await vi.waitFor(async () => {
      const jobs = await t.db.sql<{ state: string; eventId: string }[]>`
        SELECT state, data->>'eventId' AS event_id FROM pgboss.job
        WHERE name = ${REVIEW_MAIL_QUEUE} AND data->>'executionId' = ${executionId}
          AND data->>'reviewId' = ${review.id} AND data->>'notice' = 'decided'`;
      expect(jobs.map((job) => job.state)).toEqual(['completed']);
      return jobs[0]!.eventId;
    }, WAIT);
    const runnersMail = JobQueue.idFor(`${eventId}:${people.runner.id}`);
    expect(
      await t.db.sql`SELECT id FROM pgboss.job WHERE name = ${MAIL_QUEUE} AND id = ${runnersMail}`,
    ).toEqual([]);
    expect(reviewMails(people.runner.email)).toEqual([]);
  });

  it('a named reviewer removed from the workspace: their pending review goes to the owners', async () => {
    const people = await team('Leave');
    const { executionId, draft } = await ranFirstStep(people);
    const review = ok(
      await people.runner.client.post(`/api/executions/${executionId}/steps/${draft}/review-requests`, {
        userIds: [people.ana.id],
      }),
      201,
    );
    expect(ok(await people.ana.client.get('/api/reviews?status=pending'))).toHaveLength(1);
    const removed = await people.owner.client.delete(
      `/api/workspaces/${people.workspaceId}/members/${people.ana.id}`,
    );
    expect(removed.statusCode, removed.body).toBe(204);
    await vi.waitFor(
      async () =>
        expect(await reviewOf(people.owner.client, executionId, review.id)).toMatchObject({
          ownersToo: true,
          userIds: [],
        }),
      WAIT,
    );
    expect(
      ok(await people.owner.client.get('/api/reviews?status=pending')).map((r: { id: string }) => r.id),
    ).toEqual([review.id]);
    await vi.waitFor(
      () =>
        expect(reviewMails(people.owner.email).some((m) => m.subject?.includes('Chuyển lên owner'))).toBe(
          true,
        ),
      WAIT,
    );
    ok(await people.owner.client.post(`/api/reviews/${review.id}/approve`, {}));
  });

  it('a reset withdraws the review still waiting: the step can run again, and nobody can decide it', async () => {
    const people = await team('Reset');
    const { executionId, draft } = await ranFirstStep(people);
    const review = ok(
      await people.runner.client.post(`/api/executions/${executionId}/steps/${draft}/review-requests`, {
        role: 'reviewer',
      }),
      201,
    );
    const reset = ok(await people.runner.client.post(`/api/executions/${executionId}/reset`, {}));
    expect(reset.reviews.find((r: { id: string }) => r.id === review.id)).toMatchObject({
      status: 'withdrawn',
    });
    expect((await people.ana.client.post(`/api/reviews/${review.id}/approve`, {})).statusCode).toBe(409);
    expect(ok(await people.ana.client.get('/api/reviews?status=pending'))).toEqual([]);
    await runAgain(people.runner, executionId, draft);
  });
});

describe("a step's review rule changed while its review waits", () => {
  it('mails the people the pending review still asks, once each', async () => {
    const people = await team('Rule');
    const { executionId, draft } = await ranFirstStep(people);
    const review = await askReview(people.runner, executionId, draft, { userIds: [people.ana.id] });
    await vi.waitFor(() => expect(reviewMails(people.ana.email)).toHaveLength(1), WAIT);

    ok(
      await people.owner.client.put(`/api/steps/${draft}`, {
        review: { by: 'role', role: 'reviewer', approvals: 1 },
      }),
    );
    await vi.waitFor(() => {
      const mails = reviewMails(people.ana.email);
      expect(mails.map((mail) => mail.subject)).toContain(
        'Quy tắc review đã đổi: Draft · Launch / Review rule changed',
      );
    }, WAIT);
    // The review still asks Ana as it was asked; Bao, whom it does not ask, hears nothing of it.
    expect((await reviewOf(people.owner.client, executionId, review.id)).userIds).toEqual([people.ana.id]);
    expect(reviewMails(people.bao.email).some((mail) => mail.subject?.startsWith('Quy tắc review'))).toBe(
      false,
    );
  });
});

describe('the mails of a review go to those it waits for', () => {
  it('a named person whose role may no longer review hears nothing more of it', async () => {
    const people = await team('Auditor');
    const { executionId, draft } = await ranFirstStep(people);
    const review = await askReview(people.runner, executionId, draft, {
      userIds: [people.ana.id, people.bao.id],
    });
    await vi.waitFor(() => {
      expect(reviewMails(people.ana.email)).toHaveLength(1);
      expect(reviewMails(people.bao.email)).toHaveLength(1);
    }, WAIT);
    // Ana becomes an auditor: Bao is left to decide it (one approval), so it stays with the named people.
    ok(
      await people.owner.client.put(`/api/workspaces/${people.workspaceId}/members/${people.ana.id}`, {
        role: 'auditor',
      }),
    );
    ok(
      await people.owner.client.put(`/api/steps/${draft}`, {
        review: { by: 'role', role: 'reviewer', approvals: 1 },
      }),
    );
    const ruleChanged = (mail: { subject?: string }) => mail.subject?.startsWith('Quy tắc review') ?? false;
    // Both mails of the change are queued together, in one pass over the people it concerns.
    await vi.waitFor(() => expect(reviewMails(people.bao.email).filter(ruleChanged)).toHaveLength(1), WAIT);
    expect(reviewMails(people.ana.email).filter(ruleChanged)).toEqual([]);
    expect((await reviewOf(people.owner.client, executionId, review.id)).ownersToo).toBe(false);
  });
});

describe('a due time while no server runs', () => {
  it('fires once after the servers start again, with two instances on the database', async () => {
    const people = await team('Restart');
    const { executionId, draft } = await ranFirstStep(people);
    const first = await anotherInstance(t.db.url, { queuePollSeconds: 0.5 }, offline);
    // The test's own server stops working the queue: only the instances below may fire the due time.
    await t.app.queue.stop();
    let review: { id: string; dueAt: string };
    try {
      review = await askReview(people.runner, executionId, draft, {
        userIds: [people.ana.id],
        onDue: 'fail',
      });
    } finally {
      await first.close();
    }
    const timer = JobQueue.idFor(`review-due:${review.id}`);
    const [job] = await t.db.sql`SELECT state, start_after FROM pgboss.job WHERE id = ${timer}`;
    expect(job).toMatchObject({ state: 'created' });
    expect(job!.startAfter.getTime()).toBe(Date.parse(review.dueAt));
    // Past its time with no server working the queue: nothing has fired.
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(Date.parse(review.dueAt) + 500), WAIT);
    expect(await dueEvents(executionId)).toHaveLength(0);

    const instances = [
      await anotherInstance(t.db.url, { queuePollSeconds: 0.5 }, offline),
      await anotherInstance(t.db.url, { queuePollSeconds: 0.5 }, offline),
    ];
    try {
      await vi.waitFor(async () => expect(await dueEvents(executionId)).toHaveLength(1), WAIT);
      await vi.waitFor(
        async () =>
          expect((await instances[0]!.app.queue.jobOf('review-due', timer))?.state).toBe('completed'),
        WAIT,
      );
      expect(await dueEvents(executionId)).toHaveLength(1);
      expect(await reviewOf(people.runner.client, executionId, review.id)).toMatchObject({
        status: 'expired',
      });
    } finally {
      for (const instance of instances) await instance.close();
    }
  });
});
