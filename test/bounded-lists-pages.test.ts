import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_WEBHOOK_HOST, type TestApp } from './support/test-app';
import { newWorkspace, ok, type Person, person, reviewTeam } from './support/workspace-people';

type Item = Record<string, unknown>;

/**
 * The lists that are bounded (a workspace's members and webhooks, a webhook's last deliveries, a user's own
 * keys, templates, patterns, models, an execution's reviews): read whole, and paged by the same rules as the
 * lists that grow (test/pages.test.ts).
 */
describe('pages of the bounded lists (?limit=&cursor=)', () => {
  let t: TestApp;
  let owner: Person;
  let other: Person;
  const urls: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    const team = await reviewTeam(t.app, 'Pages');
    owner = team.owner;
    other = await person(t.app, 'Other');
    const { workspaceId } = team;
    urls.members = `/api/workspaces/${workspaceId}/members`;

    urls.webhooks = `/api/workspaces/${workspaceId}/webhooks`;
    const hooks: string[] = [];
    for (let n = 1; n <= 3; n++) {
      const hook = ok(
        await owner.client.post(urls.webhooks, { url: `https://${TEST_WEBHOOK_HOST}/${n}`, events: ['*'] }),
        201,
      );
      hooks.push(hook.id);
    }
    urls.deliveries = `${urls.webhooks}/${hooks[0]}/deliveries`;
    // Two deliveries made at one moment: the id tells them apart, after the newest.
    for (const at of ['2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', '2026-01-02T00:00:00Z']) {
      await t.db.sql`
        INSERT INTO webhook_deliveries (id, webhook_id, event_id, type, body, status, created_at)
        VALUES (${randomUUID()}, ${hooks[0]!}, ${randomUUID()}, 'execution.completed', '{}'::jsonb, 'failed', ${at})`;
    }

    urls.ownKeys = '/api/user/api-keys';
    for (let n = 1; n <= 3; n++) {
      ok(
        await owner.client.post(urls.ownKeys, {
          keyName: `Key ${n}`,
          keyType: 'anthropic',
          apiKey: `sk-ant-${n}`.padEnd(40, 'x'),
        }),
        201,
      );
    }

    urls.templates = '/api/templates';
    urls.patterns = '/api/patterns';
    for (const [frequency, lastSeen] of [
      [1, '2026-01-01T00:00:00Z'],
      [3, '2026-01-02T00:00:00Z'],
      [2, '2026-01-02T00:00:00Z'],
      [2, '2026-01-02T00:00:00Z'],
    ] as const) {
      await t.db.sql`
        INSERT INTO user_workflow_patterns (user_id, pattern_type, pattern_data, frequency, last_seen)
        VALUES (${owner.id}, 'repeated-step', ${t.db.sql.json({ key: randomUUID() })}, ${frequency}, ${lastSeen})`;
    }
    urls.models = '/api/models';

    // A step whose results the workspace's reviewers approve: one run, one review.
    const flow = ok(
      await team.runner.client.post('/api/flows', { name: 'Reviewed', description: 'd', workspaceId }),
      201,
    );
    const step = ok(
      await owner.client.post('/api/steps', {
        flowId: flow.id,
        name: 'Draft',
        order: 1,
        systemPrompt: 'Write',
        review: { by: 'role', role: 'reviewer' },
      }),
      201,
    );
    const execution = ok(await team.runner.client.post(`/api/flows/${flow.id}/execute`), 201);
    ok(await team.runner.client.post(`/api/executions/${execution.id}/steps/${step.id}/execute`, {}));
    urls.reviewAudit = `/api/executions/${execution.id}/reviews/audit`;
    await newWorkspace(other, 'Elsewhere');
  });
  afterAll(() => t.close());

  const lists = [
    { name: 'members', at: () => urls.members!, key: 'userId', least: 4 },
    { name: 'webhooks', at: () => urls.webhooks!, key: 'id', least: 3 },
    { name: 'webhook deliveries', at: () => urls.deliveries!, key: 'id', least: 3 },
    { name: 'own keys', at: () => urls.ownKeys!, key: 'id', least: 3 },
    { name: 'templates', at: () => urls.templates!, key: 'id', least: 3 },
    { name: 'patterns', at: () => urls.patterns!, key: 'id', least: 4 },
    { name: 'models', at: () => urls.models!, key: 'id', least: 1 },
    { name: 'review audit', at: () => urls.reviewAudit!, key: 'reviewId', least: 1 },
  ];

  it.each(lists)('$name: the pages together are the whole list, in order, none twice', async (list) => {
    const whole = ok(await owner.client.get(list.at())) as Item[];
    expect(Array.isArray(whole)).toBe(true);
    expect(whole.length).toBeGreaterThanOrEqual(list.least);
    for (const limit of [1, 2]) {
      const pages: Item[][] = [];
      let cursor: string | null = null;
      do {
        const query: string = `limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
        const page = ok(await owner.client.get(`${list.at()}?${query}`)) as {
          items: Item[];
          nextCursor: string | null;
        };
        expect(Object.keys(page).sort()).toEqual(['items', 'nextCursor']);
        expect(page.items.length).toBeLessThanOrEqual(limit);
        pages.push(page.items);
        cursor = page.nextCursor;
      } while (cursor !== null && pages.length < 50);
      // By their keys: a delivery's tries and a pending review's wait move on between two reads.
      const keys = (items: Item[]) => items.map((item) => item[list.key]);
      expect(keys(pages.flat())).toEqual(keys(whole));
      expect(new Set(pages.flat().map((item) => item[list.key])).size).toBe(whole.length);
    }
    // A page that ends the list exactly says so.
    const exact = ok(await owner.client.get(`${list.at()}?limit=${whole.length}`));
    expect(exact.items.map((item: Item) => item[list.key])).toEqual(whole.map((item) => item[list.key]));
    expect(exact.nextCursor).toBeNull();
  });

  it.each(lists)('$name: a bad limit or a cursor of another list is a 400 problem', async (list) => {
    const limit = await owner.client.get(`${list.at()}?limit=0`);
    expect(limit.statusCode).toBe(400);
    expect(limit.json()).toMatchObject({ code: 'invalid_input' });
    const foreign = lists.find((each) => each !== list && each.name !== 'models')!;
    const cursor = (ok(await owner.client.get(`${foreign.at()}?limit=1`)) as { nextCursor: string })
      .nextCursor;
    const refused = await owner.client.get(`${list.at()}?limit=1&cursor=${encodeURIComponent(cursor)}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'rule_violated' });
  });

  it('keeps the workspace’s lists missing to anyone else, paged or not', async () => {
    for (const url of [urls.members!, urls.reviewAudit!]) {
      for (const query of ['', '?limit=1']) {
        expect((await other.client.get(`${url}${query}`)).statusCode, `${url}${query}`).toBe(404);
      }
    }
  });

  it('documents limit and cursor on each, and the answer as the array or a page', async () => {
    const document = ok(await owner.client.get('/api/openapi.json'));
    for (const path of [
      '/api/workspaces/{id}/members',
      '/api/workspaces/{id}/webhooks',
      '/api/workspaces/{id}/webhooks/{hookId}/deliveries',
      '/api/user/api-keys',
      '/api/templates',
      '/api/patterns',
      '/api/models',
      '/api/executions/{id}/reviews/audit',
    ]) {
      const operation = document.paths[path].get;
      const query = operation.parameters.filter((p: { in: string }) => p.in === 'query');
      expect(query.map((p: { name: string }) => p.name).sort(), path).toEqual(['cursor', 'limit']);
      const answer = operation.responses['200'].content['application/json'].schema;
      expect(answer.anyOf.map((shape: { type: string }) => shape.type).sort(), path).toEqual([
        'array',
        'object',
      ]);
    }
  });
});
