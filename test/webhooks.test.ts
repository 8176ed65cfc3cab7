import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SECRET_ROTATION_OVERLAP_MS } from '../src/api/notifications/notifications';
import { createOwnKeyCipher } from '../src/api/own-keys/own-key-cipher';
import { createTestApp, OFFLINE_MODEL, TEST_APP_SECRET, type TestApp } from './support/test-app';
import { legacyVerifies, type ReceivedDelivery, receiver, verifies } from './support/webhook-receiver';
import { ok, type ReviewTeam, reviewTeam } from './support/workspace-people';

/**
 * Webhooks as any Standard Webhooks receiver takes them, on a receiver on 127.0.0.1 that checks each delivery
 * with the standardwebhooks package itself: the signature (and a rotated secret's overlap, on a clock the test
 * moves), the payloads a receiver acts on, test deliveries and "retry now".
 */

const WAIT = { timeout: 30_000, interval: 50 };
const PUBLIC_URL = 'https://workbench.example.com';

let t: TestApp;
let hooks: Awaited<ReturnType<typeof receiver>>;
let answer = 200;

beforeAll(async () => {
  hooks = await receiver(() => '', { status: () => answer });
  t = await createTestApp(
    { webhookHosts: [hooks.host], webhookRetryDelaySeconds: 1, publicUrl: PUBLIC_URL, queuePollSeconds: 0.5 },
    OFFLINE_MODEL,
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
  await hooks?.close();
});

async function addHook(team: ReviewTeam, path: string, events: string[] = ['*']) {
  return ok(
    await team.owner.client.post(`/api/workspaces/${team.workspaceId}/webhooks`, {
      url: `http://${hooks.host}/${path}`,
      events,
    }),
    201,
  ) as { id: string; secret: string };
}

/** The deliveries of one webhook: those whose webhook-id is one of its deliveries'. */
async function deliveriesOf(team: ReviewTeam, hookId: string) {
  const listed = ok(
    await team.owner.client.get(`/api/workspaces/${team.workspaceId}/webhooks/${hookId}/deliveries`),
  ) as { id: string; type: string; status: string; lastStatusCode: number | null }[];
  const ids = new Set(listed.map((d) => d.id));
  return {
    listed,
    received: hooks.deliveries
      .filter((d) => ids.has(String(d.headers['webhook-id'])))
      .map((d) => ({ ...d, json: JSON.parse(d.body) })),
  };
}

async function flowWithStep(team: ReviewTeam, name: string) {
  const flow = ok(
    await team.owner.client.post('/api/flows', { name, description: name, workspaceId: team.workspaceId }),
    201,
  );
  const step = ok(
    await team.owner.client.post('/api/steps', {
      flowId: flow.id,
      name: 'Draft',
      order: 1,
      systemPrompt: 'Write a plan.',
    }),
    201,
  );
  return { flowId: flow.id as string, stepId: step.id as string };
}

async function run(team: ReviewTeam, flowId: string, stepId: string) {
  const execution = ok(await team.runner.client.post(`/api/flows/${flowId}/execute`), 201);
  ok(
    await team.runner.client.post(`/api/executions/${execution.id}/steps/${stepId}/execute`, {
      userInput: 'go',
    }),
  );
  return execution.id as string;
}

describe('signing', () => {
  it('a delivery verifies with the standardwebhooks package; during a rotation with the old and the new secret, after 24 h only the new', async () => {
    const team = await reviewTeam(t.app, 'Sign');
    const hook = await addHook(team, 'sign', ['execution.completed']);
    expect(hook.secret).toMatch(/^whsec_/);
    const test = async () =>
      ok(await team.owner.client.post(`/api/workspaces/${team.workspaceId}/webhooks/${hook.id}/test`), 202)
        .deliveryId as string;
    const receivedOf = async (deliveryId: string) => {
      let found: ReceivedDelivery | undefined;
      await vi.waitFor(() => {
        found = hooks.deliveries.find((d) => d.headers['webhook-id'] === deliveryId);
        expect(found).toBeDefined();
      }, WAIT);
      return found!;
    };

    const first = await receivedOf(await test());
    expect(verifies(hook.secret, first.body, first.headers)).toBe(true);
    // The package's verify, as a receiver calls it, answers the payload.
    expect(
      new Webhook(hook.secret).verify(first.body, first.headers as Record<string, string>),
    ).toMatchObject({
      type: 'webhook.test',
      data: { workspaceId: team.workspaceId, webhookId: hook.id },
    });
    expect(first.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(first.headers['x-workbench-event']).toBe('webhook.test');
    // The deprecated header, for one release.
    expect(legacyVerifies(hook.secret, first.body, String(first.headers['x-workbench-signature']))).toBe(
      true,
    );
    // A body changed on the way does not verify.
    expect(verifies(hook.secret, first.body.replace('test', 'tost'), first.headers)).toBe(false);

    const rotated = ok(
      await team.owner.client.post(`/api/workspaces/${team.workspaceId}/webhooks/${hook.id}/rotate-secret`),
    );
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(hook.secret);
    expect(Date.parse(rotated.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(
      SECRET_ROTATION_OVERLAP_MS - 60_000,
    );
    const during = await receivedOf(await test());
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifies(rotated.secret, during.body, during.headers)).toBe(true);
    expect(verifies(hook.secret, during.body, during.headers)).toBe(true);

    // A day and a second later, by the clock the webhooks' secrets are judged by.
    t.app.notifications.now = () => new Date(Date.now() + SECRET_ROTATION_OVERLAP_MS + 1_000);
    try {
      const after = await receivedOf(await test());
      expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(verifies(rotated.secret, after.body, after.headers)).toBe(true);
      expect(verifies(hook.secret, after.body, after.headers)).toBe(false);
    } finally {
      t.app.notifications.now = () => new Date();
    }
    const [listed] = ok(await team.owner.client.get(`/api/workspaces/${team.workspaceId}/webhooks`));
    expect(listed.previousSecretExpiresAt).toBe(rotated.previousSecretExpiresAt);
  });

  it('a webhook made before keeps its secret: its bytes, written as whsec_ and their base64', async () => {
    const team = await reviewTeam(t.app, 'Legacy');
    const hook = await addHook(team, 'legacy', ['execution.completed']);
    // As a webhook made before was stored: 64 hex characters whose text keyed the HMAC.
    const old = randomBytes(32).toString('hex');
    const cipher = createOwnKeyCipher(TEST_APP_SECRET);
    await t.db.sql`UPDATE webhooks SET secret_sealed = ${cipher.encrypt(old)} WHERE id = ${hook.id}`;
    const { deliveryId } = ok(
      await team.owner.client.post(`/api/workspaces/${team.workspaceId}/webhooks/${hook.id}/test`),
      202,
    );
    let delivery: ReceivedDelivery | undefined;
    await vi.waitFor(() => {
      delivery = hooks.deliveries.find((d) => d.headers['webhook-id'] === deliveryId);
      expect(delivery).toBeDefined();
    }, WAIT);
    const standard = `whsec_${Buffer.from(old, 'utf8').toString('base64')}`;
    expect(verifies(standard, delivery!.body, delivery!.headers)).toBe(true);
    // The receiver's old check, keyed with the hex text, still holds.
    expect(legacyVerifies(standard, delivery!.body, String(delivery!.headers['x-workbench-signature']))).toBe(
      true,
    );
  });
});

describe('payloads', () => {
  it('tell a 1-of-2 approval from the final one, with names and a link; withdrawn and handed back reviews are sent', async () => {
    const team = await reviewTeam(t.app, 'Pay');
    const hook = await addHook(team, 'payloads');
    const { flowId, stepId } = await flowWithStep(team, 'Launch');
    ok(
      await team.owner.client.put(`/api/steps/${stepId}`, {
        review: { by: 'members', userIds: [team.ana.id, team.bao.id], approvals: 2 },
      }),
    );
    const first = await run(team, flowId, stepId);
    const reviewId = (await reviewsOf(team, first))[0]!.id;
    ok(await team.ana.client.post(`/api/reviews/${reviewId}/approve`, { comment: 'Fine by me' }));
    ok(await team.bao.client.post(`/api/reviews/${reviewId}/approve`, {}));

    await vi.waitFor(async () => {
      const { received } = await deliveriesOf(team, hook.id);
      expect(received.filter((d) => d.json.type === 'review.decided')).toHaveLength(2);
    }, WAIT);
    const { received } = await deliveriesOf(team, hook.id);
    for (const delivery of received)
      expect(verifies(hook.secret, delivery.body, delivery.headers)).toBe(true);
    const requested = received.find((d) => d.json.type === 'review.requested')!.json;
    expect(requested).toMatchObject({
      type: 'review.requested',
      timestamp: expect.any(String),
      data: {
        workspaceId: team.workspaceId,
        executionId: first,
        flowId,
        flowName: 'Launch',
        stepId,
        step: { stepId, name: 'Draft' },
        reviewId,
        review: {
          status: 'pending',
          approvalsGiven: 0,
          approvalsNeeded: 2,
          askedOf: {
            by: 'members',
            people: [
              { userId: team.ana.id, name: 'Ana Pay Nguyen' },
              { userId: team.bao.id, name: 'Bao Pay Nguyen' },
            ],
          },
          requestedBy: { userId: team.runner.id, name: 'Runner Pay Nguyen' },
          link: `${PUBLIC_URL}/flows/${flowId}?mode=run&execution=${first}&step=${stepId}`,
        },
        execution: { link: `${PUBLIC_URL}/flows/${flowId}?mode=run&execution=${first}` },
      },
    });
    const decided = received
      .filter((d) => d.json.type === 'review.decided')
      .map((d) => d.json)
      .sort((a, b) => a.data.sequence - b.data.sequence);
    expect(decided[0]).toMatchObject({
      data: {
        decision: 'approved',
        final: false,
        decidedBy: { userId: team.ana.id, name: 'Ana Pay Nguyen', role: 'reviewer' },
        comment: 'Fine by me',
        actor: { userId: team.ana.id, name: 'Ana Pay Nguyen' },
        review: {
          status: 'pending',
          approvalsGiven: 1,
          approvalsNeeded: 2,
          approvals: [{ userId: team.ana.id, name: 'Ana Pay Nguyen', comment: 'Fine by me' }],
        },
      },
    });
    expect(decided[1]).toMatchObject({
      data: {
        decision: 'approved',
        final: true,
        decidedBy: { userId: team.bao.id, name: 'Bao Pay Nguyen' },
        review: { status: 'approved', approvalsGiven: 2, approvalsNeeded: 2 },
      },
    });
    // An execution's deliveries are ordered by their sequence, its events' order.
    expect(requested.data.sequence).toBeLessThan(decided[0].data.sequence);
    expect(decided[0].data.sequence).toBeLessThan(decided[1].data.sequence);
    // Each delivery's webhook-id is its own.
    expect(new Set(received.map((d) => d.headers['webhook-id'])).size).toBe(received.length);

    // Withdrawn: the execution is reset while its review waits.
    const second = await run(team, flowId, stepId);
    const withdrawnId = (await reviewsOf(team, second))[0]!.id;
    ok(await team.runner.client.post(`/api/executions/${second}/reset`, {}));
    // Handed back: a person the review names leaves the workspace.
    const third = await run(team, flowId, stepId);
    const handedBackId = (await reviewsOf(team, third))[0]!.id;
    const removed = await team.owner.client.delete(
      `/api/workspaces/${team.workspaceId}/members/${team.bao.id}`,
    );
    expect(removed.statusCode, removed.body).toBe(204);

    // Owners too: the one person a review asks may no longer review (an auditor now).
    const other = await flowWithStep(team, 'Other');
    const fourth = await run(team, other.flowId, other.stepId);
    const ownersTooReview = ok(
      await team.runner.client.post(`/api/executions/${fourth}/steps/${other.stepId}/review-requests`, {
        userIds: [team.ana.id],
      }),
      201,
    );
    ok(
      await team.owner.client.put(`/api/workspaces/${team.workspaceId}/members/${team.ana.id}`, {
        role: 'auditor',
      }),
    );

    await vi.waitFor(async () => {
      const sent = (await deliveriesOf(team, hook.id)).received.map((d) => d.json);
      expect(sent.map((body) => body.type)).toContain('review.withdrawn');
      expect(sent.map((body) => body.type)).toContain('review.handedBack');
      expect(
        sent.some((body) => body.type === 'review.ownersToo' && body.data.reviewId === ownersTooReview.id),
      ).toBe(true);
    }, WAIT);
    const all = (await deliveriesOf(team, hook.id)).received.map((d) => d.json);
    expect(all.find((body) => body.type === 'review.withdrawn')).toMatchObject({
      data: { executionId: second, reviewId: withdrawnId, review: { status: 'withdrawn' } },
    });
    expect(all.find((body) => body.type === 'review.handedBack')).toMatchObject({
      data: {
        executionId: third,
        reviewId: handedBackId,
        left: { userId: team.bao.id, name: 'Bao Pay Nguyen' },
        review: { status: 'pending', ownersToo: true },
      },
    });
    expect(
      all.find((body) => body.type === 'review.ownersToo' && body.data.reviewId === ownersTooReview.id),
    ).toMatchObject({
      data: {
        executionId: fourth,
        flowName: 'Other',
        reviewId: ownersTooReview.id,
        reason: 'too-few-deciders',
        review: { status: 'pending', ownersToo: true, approvalsGiven: 0, approvalsNeeded: 1 },
      },
    });
  });
});

describe('test deliveries and retry now', () => {
  it('a failed delivery shows its answer, and is delivered when retried', async () => {
    const team = await reviewTeam(t.app, 'Retry');
    const hook = await addHook(team, 'retry', ['execution.completed']);
    const base = `/api/workspaces/${team.workspaceId}/webhooks/${hook.id}`;
    answer = 503;
    let deliveryId: string;
    try {
      deliveryId = ok(await team.owner.client.post(`${base}/test`), 202).deliveryId;
      await vi.waitFor(async () => {
        const [delivery] = ok(await team.owner.client.get(`${base}/deliveries`));
        expect(delivery).toMatchObject({ id: deliveryId, lastStatusCode: 503 });
      }, WAIT);
      // Still being tried, later: tried now as well, and still pending after another 503.
      const early = ok(await team.owner.client.post(`${base}/deliveries/${deliveryId}/retry`), 202);
      expect(early).toMatchObject({ id: deliveryId, status: 'pending' });
      // Its tries run out (as after the last retry).
      await t.db.sql`UPDATE webhook_deliveries SET status = 'failed' WHERE id = ${deliveryId}`;
    } finally {
      answer = 200;
    }
    const retried = ok(await team.owner.client.post(`${base}/deliveries/${deliveryId}/retry`), 202);
    expect(retried).toMatchObject({ id: deliveryId, status: 'pending' });
    await vi.waitFor(async () => {
      const [delivery] = ok(await team.owner.client.get(`${base}/deliveries`));
      expect(delivery).toMatchObject({ id: deliveryId, status: 'delivered', lastStatusCode: 200 });
    }, WAIT);
    // Delivered: nothing to retry.
    expect((await team.owner.client.post(`${base}/deliveries/${deliveryId}/retry`)).statusCode).toBe(409);
    expect((await team.owner.client.post(`${base}/deliveries/${randomUUID()}/retry`)).statusCode).toBe(404);
    expect(
      (await team.owner.client.post(`/api/workspaces/${team.workspaceId}/webhooks/${randomUUID()}/test`))
        .statusCode,
    ).toBe(404);
    // Others in the workspace may not.
    const refused = await team.ana.client.post(`${base}/test`);
    expect(refused.statusCode, refused.body).toBe(403);
    // The refusal names what the role may not do here: webhooks, not only members.
    expect(refused.json().message).toBe(
      'Vai trò reviewer trong workspace này không được quản lý thành viên và webhook của workspace này',
    );
    expect((await team.ana.client.post(`${base}/rotate-secret`)).statusCode).toBe(403);
  });
});

describe('event types', () => {
  it('takes the deprecated review.escalated as the two types it was', async () => {
    const team = await reviewTeam(t.app, 'Types');
    const made = await addHook(team, 'types', ['review.escalated', 'review.due']);
    expect((made as unknown as { events: string[] }).events).toEqual([
      'review.handedBack',
      'review.ownersToo',
      'review.due',
    ]);
    const refused = await team.owner.client.post(`/api/workspaces/${team.workspaceId}/webhooks`, {
      url: `http://${hooks.host}/types`,
      events: ['webhook.test'],
    });
    expect(refused.statusCode).toBe(400);
  });

  it('refuses an empty or overlong list of event types in the words of the API', async () => {
    const team = await reviewTeam(t.app, 'Lists');
    const url = `http://${hooks.host}/lists`;
    const base = `/api/workspaces/${team.workspaceId}/webhooks`;
    const none = await team.owner.client.post(base, { url, events: [] });
    expect(none.statusCode, none.body).toBe(400);
    expect(none.json().message).toBe('events: cần ít nhất một loại sự kiện, hoặc *');
    const many = await team.owner.client.post(base, { url, events: Array(50).fill('*') });
    expect(many.statusCode, many.body).toBe(400);
    expect(many.json().message).toMatch(/^events: tối đa \d+ loại sự kiện$/);
  });
});

async function reviewsOf(team: ReviewTeam, executionId: string) {
  let reviews: { id: string; status: string }[] = [];
  await vi.waitFor(async () => {
    reviews = ok(await team.owner.client.get(`/api/executions/${executionId}`)).reviews;
    expect(reviews.length).toBeGreaterThan(0);
  }, WAIT);
  return reviews;
}
