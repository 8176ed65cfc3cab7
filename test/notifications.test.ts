import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { JobQueue } from '../src/api/notifications/job-queue';
import { MAIL_QUEUE, sealedMail } from '../src/api/notifications/notifications';
import { createOwnKeyCipher } from '../src/api/own-keys/own-key-cipher';
import { Browser } from './support/access-table';
import { loggedCheckpoint } from './support/audit-log';
import { createTestDatabase, type TestDatabase } from './support/database';
import { mailbox } from './support/mailbox';
import { startServerProcess } from './support/server-process';
import {
  anotherAddress,
  anotherInstance,
  createTestApp,
  OFFLINE_MODEL,
  signUp,
  TEST_APP_SECRET,
  type TestApp,
  testConfig,
} from './support/test-app';
import { receiver } from './support/webhook-receiver';

/** A job queue made by a test itself has the pool of a test app's (see TEST_POOL_SIZE). */
const queuePool = { poolSize: testConfig().jobQueuePoolSize };

const offline = OFFLINE_MODEL;

/** A port nothing listens on. */
async function closedPort() {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function ownerWithWorkspace(t: TestApp) {
  const account = await signUp(t.app, 'Owner', { remoteAddress: anotherAddress() });
  const owner = new Browser(t.app, account.cookie);
  const workspace = (await owner.made(201, 'POST', '/api/workspaces', { name: 'Trà' })).id as string;
  return { owner, workspace };
}

/** A one-step flow in the workspace, run once by its owner: the execution and its step. */
async function runInWorkspace(owner: Browser, workspace: string) {
  const flow = await owner.made(201, 'POST', '/api/flows', {
    name: 'Tea',
    description: 'Tea flow',
    workspaceId: workspace,
  });
  const step = await owner.made(201, 'POST', '/api/steps', {
    flowId: flow.id,
    name: 'Step 1',
    order: 1,
    systemPrompt: 'Say hello.',
  });
  const execution = (await owner.made(201, 'POST', `/api/flows/${flow.id}/execute`)).id as string;
  await owner.made(200, 'POST', `/api/executions/${execution}/steps/${step.id}/execute`, {
    userInput: 'tea',
  });
  return { execution, step: step.id as string };
}

const mailJobs = async (t: TestApp) =>
  t.db.sql<{ id: string; state: string }[]>`SELECT id, state FROM pgboss.job WHERE name = ${MAIL_QUEUE}`;

describe('invitation mails', () => {
  let box: Awaited<ReturnType<typeof mailbox>>;
  let t: TestApp;
  beforeAll(async () => {
    box = await mailbox();
    t = await createTestApp({ smtpUrl: box.url, mailFrom: 'Workbench <no-reply@example.com>' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await box?.close();
  });

  it('mails the link of an invitation to the invited address, after the answer', async () => {
    const { owner, workspace } = await ownerWithWorkspace(t);
    const invitation = await owner.made(201, 'POST', `/api/workspaces/${workspace}/invitations`, {
      email: 'Binh@Example.com',
      role: 'editor',
    });
    expect(await mailJobs(t)).toHaveLength(1);
    await vi.waitFor(() => expect(box.mails).toHaveLength(1), { timeout: 20_000, interval: 50 });
    const [mail] = box.mails;
    expect(mail!.to && 'text' in mail!.to ? mail!.to.text : '').toBe('binh@example.com');
    expect(mail!.from?.text).toContain('no-reply@example.com');
    expect(mail!.subject).toBe('Lời mời vào workspace "Trà" / Invitation to "Trà"');
    expect(mail!.text).toContain(invitation.acceptUrl);
    expect(mail!.html).toContain(invitation.acceptUrl);
  });

  it('writes no job when the command fails, and exactly one when it commits', async () => {
    const { owner, workspace } = await ownerWithWorkspace(t);
    const before = (await mailJobs(t)).length;
    // A reaction that breaks the transaction of this one invitation: the job goes with the events.
    let breakNext = true;
    t.app.commands.react((tx, recorded) => {
      if (!breakNext || !recorded.some((event) => event.type === 'MemberInvited')) return [];
      breakNext = false;
      return [tx`SELECT 1 / 0`];
    });
    const failed = await owner.call('POST', `/api/workspaces/${workspace}/invitations`, {
      email: 'chi@example.com',
      role: 'reviewer',
    });
    expect(failed.statusCode).toBe(500);
    expect(await mailJobs(t)).toHaveLength(before);
    const [invited] = await t.db.sql`SELECT count(*)::int AS count FROM workspace_invitations
      WHERE workspace_id = ${workspace}`;
    expect(invited!.count).toBe(0);
    // A refused command (not the owner) writes none either.
    const stranger = new Browser(
      t.app,
      (await signUp(t.app, 'Stranger', { remoteAddress: anotherAddress() })).cookie,
    );
    await stranger.made(404, 'POST', `/api/workspaces/${workspace}/invitations`, {
      email: 'dung@example.com',
      role: 'reviewer',
    });
    expect(await mailJobs(t)).toHaveLength(before);
    await owner.made(201, 'POST', `/api/workspaces/${workspace}/invitations`, {
      email: 'chi@example.com',
      role: 'reviewer',
    });
    expect(await mailJobs(t)).toHaveLength(before + 1);
  });
});

describe('invitation mails with the SMTP server down', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${await closedPort()}` });
  }, 60_000);
  afterAll(() => t?.close());

  it('answers the invitation all the same, and the queue retries the mail', async () => {
    const { owner, workspace } = await ownerWithWorkspace(t);
    await owner.made(201, 'POST', `/api/workspaces/${workspace}/invitations`, {
      email: 'an@example.com',
      role: 'auditor',
    });
    const [job] = await mailJobs(t);
    await vi.waitFor(
      async () => {
        const now = await t.app.queue.jobOf(MAIL_QUEUE, job!.id);
        // Failed once, to be tried again later by the queue's retry policy.
        expect(now?.state).toBe('retry');
        expect(JSON.stringify(now?.output)).toMatch(/ECONNREFUSED/);
      },
      { timeout: 30_000, interval: 100 },
    );
  });
});

describe('without SMTP_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  }, 60_000);
  afterAll(() => t?.close());

  it('queues no mail', async () => {
    const { owner, workspace } = await ownerWithWorkspace(t);
    await owner.made(201, 'POST', `/api/workspaces/${workspace}/invitations`, {
      email: 'an@example.com',
      role: 'auditor',
    });
    expect(await mailJobs(t)).toHaveLength(0);
  });
});

describe('webhooks', () => {
  let t: TestApp;
  let secret = '';
  let hooks: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    hooks = await receiver(() => secret);
    t = await createTestApp({ webhookHosts: [hooks.host], webhookRetryDelaySeconds: 1 }, offline);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await hooks?.close();
  });

  it('posts a signed execution.completed, retries it after a 500 with the same id, and shows the delivery', async () => {
    const { owner, workspace } = await ownerWithWorkspace(t);
    const made = await owner.made(201, 'POST', `/api/workspaces/${workspace}/webhooks`, {
      url: `http://${hooks.host}/hook`,
      events: ['execution.completed'],
    });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    secret = made.secret;
    expect(await owner.made(200, 'GET', `/api/workspaces/${workspace}/webhooks`)).toEqual([
      {
        id: made.id,
        url: `http://${hooks.host}/hook`,
        events: ['execution.completed'],
        createdAt: made.createdAt,
        previousSecretExpiresAt: null,
      },
    ]);
    const [sealed] = await t.db.sql`SELECT secret_sealed FROM webhooks WHERE id = ${made.id}`;
    expect(sealed!.secretSealed).not.toContain(secret.slice('whsec_'.length));

    const { execution } = await runInWorkspace(owner, workspace);

    await vi.waitFor(() => expect(hooks.deliveries).toHaveLength(2), { timeout: 30_000, interval: 50 });
    expect(hooks.deliveries.map((d) => d.valid)).toEqual([true, true]);
    const [first, second] = hooks.deliveries.map((d) => JSON.parse(d.body));
    expect(first).toEqual(second);
    const [firstHeaders, secondHeaders] = hooks.deliveries.map((d) => d.headers);
    // The same webhook-id on every try: a receiver dedupes by it.
    expect(firstHeaders!['webhook-id']).toBe(secondHeaders!['webhook-id']);
    expect(firstHeaders!['x-workbench-event']).toBe('execution.completed');
    expect(first).toMatchObject({
      type: 'execution.completed',
      timestamp: expect.any(String),
      data: { workspaceId: workspace, executionId: execution, flowName: 'Tea', sequence: expect.any(Number) },
    });
    await vi.waitFor(
      async () => {
        const deliveries = await owner.made(
          200,
          'GET',
          `/api/workspaces/${workspace}/webhooks/${made.id}/deliveries`,
        );
        expect(deliveries).toEqual([
          expect.objectContaining({
            id: firstHeaders!['webhook-id'],
            type: 'execution.completed',
            status: 'delivered',
            attempts: 2,
            lastStatusCode: 200,
          }),
        ]);
      },
      { timeout: 10_000, interval: 50 },
    );
  });

  it('posts review.requested when a run asks for review, and review.decided when a reviewer decides', async () => {
    const reviews = await receiver(() => reviewSecret);
    let reviewSecret = '';
    try {
      const local = await createTestApp(
        { webhookHosts: [reviews.host], webhookRetryDelaySeconds: 1 },
        offline,
      );
      try {
        const { owner, workspace } = await ownerWithWorkspace(local);
        const made = await owner.made(201, 'POST', `/api/workspaces/${workspace}/webhooks`, {
          url: `http://${reviews.host}/hook`,
          events: ['review.requested', 'review.decided'],
        });
        reviewSecret = made.secret;
        const account = await signUp(local.app, 'Reviewer', { remoteAddress: anotherAddress() });
        const reviewer = new Browser(local.app, account.cookie);
        const { acceptUrl } = await owner.made(201, 'POST', `/api/workspaces/${workspace}/invitations`, {
          email: account.email,
          role: 'reviewer',
        });
        await reviewer.made(
          200,
          'POST',
          `/api/invitations/${new URL(acceptUrl).pathname.split('/').at(-1)}/accept`,
        );
        const { execution, step } = await runInWorkspace(owner, workspace);
        const review = await owner.made(
          201,
          'POST',
          `/api/executions/${execution}/steps/${step}/review-requests`,
          {
            role: 'reviewer',
          },
        );
        await reviewer.made(200, 'POST', `/api/reviews/${review.id}/reject`, { reason: 'Too short' });

        // The first try of the first event is answered 500 and tried again: three deliveries for two events.
        await vi.waitFor(() => expect(reviews.deliveries).toHaveLength(3), { timeout: 30_000, interval: 50 });
        expect(reviews.deliveries.every((d) => d.valid)).toBe(true);
        const bodies = reviews.deliveries.map((d) => JSON.parse(d.body));
        const requested = bodies.find((body) => body.type === 'review.requested');
        const decided = bodies.find((body) => body.type === 'review.decided');
        expect(requested).toMatchObject({
          data: {
            workspaceId: workspace,
            executionId: execution,
            reviewId: review.id,
            stepId: step,
            review: { askedOf: { by: 'role', role: 'reviewer' } },
          },
        });
        expect(decided).toMatchObject({
          data: {
            executionId: execution,
            reviewId: review.id,
            decision: 'rejected',
            reason: 'Too short',
            review: { status: 'rejected' },
          },
        });
      } finally {
        await local.close();
      }
    } finally {
      await reviews.close();
    }
  });

  it('posts each signed checkpoint of the audit log to webhooks that ask for checkpoint.published', async () => {
    const checkpoints = await receiver(() => checkpointSecret, { failFirst: false });
    let checkpointSecret = '';
    const app = await createTestApp(
      { webhookHosts: [checkpoints.host], webhookRetryDelaySeconds: 1 },
      offline,
    );
    try {
      const { owner, workspace } = await ownerWithWorkspace(app);
      const made = await owner.made(201, 'POST', `/api/workspaces/${workspace}/webhooks`, {
        url: `http://${checkpoints.host}/checkpoints`,
        events: ['checkpoint.published'],
      });
      checkpointSecret = made.secret;
      await runInWorkspace(owner, workspace);
      const checkpoint = await loggedCheckpoint(app.app.auditLog, app.db.sql);
      await vi.waitFor(() => expect(checkpoints.deliveries).toHaveLength(1), {
        timeout: 30_000,
        interval: 50,
      });
      const [delivery] = checkpoints.deliveries;
      expect(delivery!.valid).toBe(true);
      expect(JSON.parse(delivery!.body)).toMatchObject({
        type: 'checkpoint.published',
        data: {
          workspaceId: workspace,
          origin: 'workbench/audit-log',
          size: checkpoint.size,
          sequence: checkpoint.size,
          note: checkpoint.note,
        },
      });
    } finally {
      await app.close();
      await checkpoints.close();
    }
  });

  it('refuses a host WEBHOOK_HOSTS does not allow, a wrong event type, and an eleventh webhook', async () => {
    const { owner, workspace } = await ownerWithWorkspace(t);
    const refused = await owner.call('POST', `/api/workspaces/${workspace}/webhooks`, {
      url: 'https://elsewhere.example.com/hook',
      events: ['*'],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/WEBHOOK_HOSTS/);
    const wrongType = await owner.call('POST', `/api/workspaces/${workspace}/webhooks`, {
      url: `http://${hooks.host}/hook`,
      events: ['flow.deleted'],
    });
    expect(wrongType.statusCode).toBe(400);
    for (let i = 0; i < 10; i++) {
      await owner.made(201, 'POST', `/api/workspaces/${workspace}/webhooks`, {
        url: `http://${hooks.host}/hook/${i}`,
        events: ['*'],
      });
    }
    const eleventh = await owner.call('POST', `/api/workspaces/${workspace}/webhooks`, {
      url: `http://${hooks.host}/hook/10`,
      events: ['*'],
    });
    expect(eleventh.statusCode).toBe(409);
    const [hook] = await owner.made(200, 'GET', `/api/workspaces/${workspace}/webhooks`);
    expect((await owner.call('DELETE', `/api/workspaces/${workspace}/webhooks/${hook.id}`)).statusCode).toBe(
      204,
    );
    await owner.made(404, 'GET', `/api/workspaces/${workspace}/webhooks/${hook.id}/deliveries`);
  });
});

describe('timers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  }, 60_000);
  afterAll(() => t?.close());

  it('fires once after a restart, when the server was stopped at its time', async () => {
    const at = new Date(Date.now() + 2_000);
    const first = await anotherInstance(t.db.url);
    const id = await first.app.queue.scheduleAt('restart-timer', at, {
      name: 'timer-restart',
      data: { n: 1 },
    });
    expect(id).not.toBeNull();
    // Scheduled again with the same key: still one timer.
    expect(
      await first.app.queue.scheduleAt('restart-timer', at, { name: 'timer-restart', data: { n: 2 } }),
    ).toBeNull();
    await first.close();
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(at.getTime() + 100), { timeout: 10_000 });

    const second = await anotherInstance(t.db.url);
    try {
      const runs: { n: number }[] = [];
      await second.app.queue.work<{ n: number }>('timer-restart', async (job) => {
        runs.push(job.data);
      });
      await vi.waitFor(
        async () => expect((await second.app.queue.jobOf('timer-restart', id!))?.state).toBe('completed'),
        { timeout: 30_000, interval: 100 },
      );
      expect(runs).toEqual([{ n: 1 }]);
    } finally {
      await second.close();
    }
  });

  it('fires once when two instances work one database', async () => {
    const instances = [await anotherInstance(t.db.url), await anotherInstance(t.db.url)];
    try {
      const runs: string[] = [];
      for (const [i, instance] of instances.entries()) {
        await instance.app.queue.work('timer-two', async () => {
          runs.push(`instance ${i}`);
        });
      }
      const at = new Date(Date.now() + 2_000);
      const id = await instances[0]!.app.queue.scheduleAt('two-timer', at, { name: 'timer-two', data: {} });
      expect(
        await instances[1]!.app.queue.scheduleAt('two-timer', at, { name: 'timer-two', data: {} }),
      ).toBeNull();
      await vi.waitFor(
        async () => expect((await instances[1]!.app.queue.jobOf('timer-two', id!))?.state).toBe('completed'),
        { timeout: 30_000, interval: 100 },
      );
      expect(runs).toHaveLength(1);
      const [job] = await t.db.sql`SELECT completed_on, start_after FROM pgboss.job WHERE id = ${id!}`;
      expect(job!.completedOn.getTime()).toBeGreaterThanOrEqual(at.getTime());
    } finally {
      for (const instance of instances) await instance.close();
    }
  });
});

describe('a timer across server processes (the built server: `npm run build` first)', () => {
  let db: TestDatabase;
  let box: Awaited<ReturnType<typeof mailbox>>;
  beforeAll(async () => {
    db = await createTestDatabase();
    box = await mailbox();
  }, 60_000);
  afterAll(async () => {
    await box?.close();
    await db?.drop();
  });

  it('sends a mail timed while its server was killed with SIGKILL, once, when a server starts again', async () => {
    const env = { SMTP_URL: box.url, QUEUE_POLL_SECONDS: '0.5' };
    const first = await startServerProcess(db.url, env);
    // Scheduled from outside the servers: the queue is the database's, not a process's.
    const queue = new JobQueue({
      ...queuePool,
      databaseUrl: db.url,
      pollingIntervalSeconds: 0.5,
      stopTimeoutMs: 1_000,
    });
    await queue.start();
    const at = new Date(Date.now() + 3_000);
    const mail = sealedMail(createOwnKeyCipher(TEST_APP_SECRET), {
      to: 'timer@example.com',
      template: 'invitation',
      values: {
        workspaceName: 'Hẹn giờ',
        role: 'editor',
        acceptUrl: 'https://app.example.com/x',
        expiresAt: '-',
      },
    });
    let id: string | null;
    try {
      id = await queue.scheduleAt('timer-across-processes', at, { name: MAIL_QUEUE, data: mail });
      expect(id).not.toBeNull();
    } finally {
      await queue.stop();
    }
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(at.getTime() + 500), { timeout: 10_000 });
    expect(box.mails).toHaveLength(0);

    const second = await startServerProcess(db.url, env);
    try {
      await vi.waitFor(() => expect(box.mails).toHaveLength(1), { timeout: 30_000, interval: 50 });
      expect(box.mails[0]!.subject).toContain('Hẹn giờ');
      await vi.waitFor(
        async () => {
          const [job] = await db.sql`SELECT state FROM pgboss.job WHERE id = ${id!}`;
          expect(job?.state).toBe('completed');
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(box.mails).toHaveLength(1);
    } finally {
      await second.stop();
    }
  }, 90_000);
});

describe('the queue on instances that start together', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  }, 60_000);
  afterAll(() => db?.drop());

  it('makes its queues once, whichever instance gets there first, and every instance starts', async () => {
    // PostgreSQL ends one of two makings of a queue at once as a deadlock: each instance looks again.
    const queues = Array.from(
      { length: 4 },
      () =>
        new JobQueue({ ...queuePool, databaseUrl: db.url, pollingIntervalSeconds: 1, stopTimeoutMs: 1_000 }),
    );
    const errors: Error[] = [];
    for (const queue of queues) queue.onError((error) => errors.push(error));
    try {
      const started = await Promise.allSettled(
        queues.map(async (queue) => {
          await queue.start();
          for (const name of ['mail', 'webhook', 'timer', 'other']) await queue.ensure(name);
        }),
      );
      expect(started.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
      const made = await db.sql<{ name: string }[]>`
        SELECT name FROM pgboss.queue WHERE name NOT LIKE '\_\_pgboss%' ORDER BY name`;
      expect(made.map((queue) => queue.name)).toEqual(['mail', 'other', 'timer', 'webhook']);
      expect(errors).toEqual([]);
    } finally {
      await Promise.all(queues.map((queue) => queue.stop()));
    }
  });
});
