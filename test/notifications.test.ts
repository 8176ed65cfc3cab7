import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOfflineProvider } from '../src/ai';
import { MAIL_QUEUE } from '../src/api/notifications/notifications';
import { Browser } from './support/access-table';
import { anotherAddress, createTestApp, signUp, type TestApp } from './support/test-app';

const offline = {
  resolveModel: () => ({ provider: createOfflineProvider(), keySource: 'offline' as const }),
};

/** An SMTP server on a free port that parses each mail it takes. */
async function mailbox() {
  const mails: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          mails.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  return {
    mails,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

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
    t.app.commands.react((tx, recorded) =>
      breakNext && recorded.some((event) => event.type === 'MemberInvited')
        ? ((breakNext = false), [tx`SELECT 1 / 0`])
        : [],
    );
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
