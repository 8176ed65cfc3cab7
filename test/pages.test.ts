import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

type Item = Record<string, unknown>;
interface PageAnswer {
  items: Item[];
  nextCursor: string | null;
}

/** A list that grows, as the table below names it: where it is, how to add to it, and whose it is. */
interface PagedList {
  name: string;
  /** The operation as the OpenAPI document names it. */
  operation: [path: string, method: 'get'];
  url: () => string;
  /** Adds one item (or, for an execution's log, a few events). */
  add: (n: number) => Promise<void>;
  /** What tells two items apart. */
  key: 'id' | 'position' | 'version';
  /** The log of an execution answers pages even when none is asked for. */
  alwaysPaged?: true;
  /** Reached through an id of the owner's: another user finds it missing. */
  ownedId?: true;
}

describe('pages of every list that grows (?limit=&cursor=)', () => {
  let t: TestApp;
  let lan: Client;
  let mai: Client;
  let lanId: string;
  const ids: Record<string, string> = {};

  const ok = async (response: Promise<{ statusCode: number; body: string }>, status = [200, 201]) => {
    const answered = await response;
    expect(status, answered.body).toContain(answered.statusCode);
  };
  /** Runs the flow's one step in its execution and resets it: the execution's log and the flow's logs grow. */
  const runOnce = async (executionId: string, stepId: string) => {
    await ok(lan.post(`/api/executions/${executionId}/steps/${stepId}/execute`, {}));
    await ok(lan.post(`/api/executions/${executionId}/reset`, {}));
  };

  const lists: PagedList[] = [
    {
      name: 'flows',
      operation: ['/api/flows', 'get'],
      url: () => '/api/flows',
      add: (n) => ok(lan.post('/api/flows', { name: `Flow ${n}`, description: 'One of many' })),
      key: 'id',
    },
    {
      name: 'executions of a flow',
      operation: ['/api/flows/{flowId}/executions', 'get'],
      url: () => `/api/flows/${ids.executed}/executions`,
      add: () => ok(lan.post(`/api/flows/${ids.executed}/execute`)),
      key: 'id',
      ownedId: true,
    },
    {
      name: 'events of an execution',
      operation: ['/api/executions/{id}/events', 'get'],
      url: () => `/api/executions/${ids.execution}/events`,
      add: () => runOnce(ids.execution!, ids.step!),
      key: 'position',
      alwaysPaged: true,
      ownedId: true,
    },
    {
      name: 'versions of a flow',
      operation: ['/api/flows/{id}/versions', 'get'],
      url: () => `/api/flows/${ids.versioned}/versions`,
      add: (n) => ok(lan.put(`/api/flows/${ids.versioned}`, { name: `Version ${n}` })),
      key: 'version',
      ownedId: true,
    },
    {
      name: 'model request logs of a flow',
      operation: ['/api/flows/{flowId}/logs', 'get'],
      url: () => `/api/flows/${ids.run}/logs`,
      add: () => runOnce(ids.execution!, ids.step!),
      key: 'id',
      ownedId: true,
    },
    {
      name: 'suggestions for a flow',
      operation: ['/api/flows/{flowId}/suggestions', 'get'],
      url: () => `/api/flows/${ids.run}/suggestions`,
      add: () => ok(lan.post(`/api/flows/${ids.run}/suggestions`)),
      key: 'id',
      ownedId: true,
    },
    {
      name: 'recommendations',
      operation: ['/api/recommendations', 'get'],
      url: () => '/api/recommendations',
      // Several at once, made in one statement: equal times, priorities and confidences, told apart by id.
      add: async (n) => {
        await t.db.sql`
          INSERT INTO workflow_recommendations (user_id, recommendation_type, title, description, priority, confidence)
          SELECT ${lanId}, 'optimization', 'Idea ' || ${n} || '.' || i, 'Why', (ARRAY['high', 'low'])[1 + i % 2], 70
          FROM generate_series(1, 3) AS i`;
      },
      key: 'id',
    },
    {
      name: 'master mode sessions',
      operation: ['/api/master-mode/sessions', 'get'],
      url: () => '/api/master-mode/sessions',
      add: (n) => ok(lan.post('/api/master-mode/standalone', { name: `Sheet ${n}` })),
      key: 'id',
    },
    {
      name: 'runs of a master mode session',
      operation: ['/api/master-mode/session/{sessionId}/runs', 'get'],
      url: () => `/api/master-mode/session/${ids.sheet}/runs`,
      add: () => ok(lan.post(`/api/master-mode/execute/${ids.row}`)),
      key: 'id',
      ownedId: true,
    },
    {
      name: 'saved sessions',
      operation: ['/api/user-sessions', 'get'],
      url: () => '/api/user-sessions',
      add: (n) =>
        ok(lan.post('/api/user-sessions', { flowId: '', executionId: '', sessionName: `Saved ${n}` })),
      key: 'id',
    },
  ];

  beforeAll(async () => {
    t = await createTestApp({ freeStepAllowance: 1000 });
    const signedUp = await signUp(t.app, 'Lan');
    lan = as(t.app, signedUp.cookie);
    lanId = signedUp.user.id;
    mai = as(t.app, (await signUp(t.app, 'Mai')).cookie);
    ids.executed = (
      await createFlow(lan, 'Executed', [{ name: 'Ideas', systemPrompt: 'Tea ideas.' }])
    ).flow.id;
    ids.versioned = (await createFlow(lan, 'Versioned', [])).flow.id;
    const run = await createFlow(lan, 'Run', [{ name: 'Ideas', systemPrompt: 'Tea ideas.' }]);
    ids.run = run.flow.id;
    ids.step = run.steps[0].id;
    ids.execution = (await lan.post(`/api/flows/${ids.run}/execute`)).json().id;
    ids.sheet = (await lan.post('/api/master-mode/standalone', { name: 'Runs' })).json().id;
    const row = await lan.post('/api/master-mode/steps', {
      sessionId: ids.sheet,
      stepName: 'Kept',
      stepType: 'text',
      userInput: 'kept text',
    });
    ids.row = row.json().id;
  });
  afterAll(() => t.close());

  /** Every item of the list, as it answers without page parameters. */
  const whole = async (list: PagedList): Promise<Item[]> => {
    const response = await lan.get(list.url());
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    if (list.alwaysPaged) {
      expect(body.nextCursor).toBeNull();
      return body.items;
    }
    expect(Array.isArray(body)).toBe(true);
    return body;
  };
  const page = async (list: PagedList, query: string): Promise<PageAnswer> => {
    const response = await lan.get(`${list.url()}?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json();
    expect(Object.keys(answer).sort()).toEqual(['items', 'nextCursor']);
    return answer;
  };
  /** The pages from `cursor` (the first page when null) to the last, `limit` items each. */
  const walk = async (list: PagedList, limit: number, cursor: string | null = null) => {
    const pages: Item[][] = [];
    do {
      const answer: PageAnswer = await page(
        list,
        `limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
      );
      pages.push(answer.items);
      cursor = answer.nextCursor;
    } while (cursor !== null && pages.length < 100);
    return pages;
  };

  it.each(lists)('$name: the pages together are the whole list, in order, none twice', async (list) => {
    for (let n = 1; n <= 5; n++) await list.add(n);
    const all = await whole(list);
    expect(all.length).toBeGreaterThan(4);
    const pages = await walk(list, 2);
    expect(pages.flat()).toEqual(all);
    expect(new Set(pages.flat().map((item) => item[list.key])).size).toBe(all.length);
    expect(pages.slice(0, -1).every((items) => items.length === 2)).toBe(true);
    // A page that ends the list exactly says so: no empty page after it.
    const exact = await page(list, `limit=${all.length}`);
    expect(exact).toEqual({ items: all, nextCursor: null });
  });

  it.each(lists)(
    '$name: an item added between pages neither shifts nor repeats the items after',
    async (list) => {
      const before = await whole(list);
      const first = await page(list, 'limit=2');
      expect(first.items).toEqual(before.slice(0, 2));
      await list.add(99);
      const rest = (await walk(list, 2, first.nextCursor)).flat();
      const old = new Set(before.map((item) => item[list.key]));
      const keys = (items: Item[]) => items.map((item) => item[list.key]);
      expect(keys(rest.filter((item) => old.has(item[list.key])))).toEqual(keys(before.slice(2)));
    },
  );

  it.each(lists)('$name: a limit out of 1-200, or one not a number, is a 400 problem', async (list) => {
    for (const limit of ['0', '201', 'abc', '-1', '1.5']) {
      const response = await lan.get(`${list.url()}?limit=${limit}`);
      expect(response.statusCode, limit).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.json()).toMatchObject({
        status: 400,
        code: 'invalid_input',
        issues: expect.any(Array),
      });
    }
    expect((await lan.get(`${list.url()}?limit=200`)).statusCode).toBe(200);
    expect((await lan.get(`${list.url()}?limit=1`)).statusCode).toBe(200);
  });

  it.each(lists)('$name: a cursor it did not give is a 400 problem, never a 500', async (list) => {
    const foreign = (await page(lists.find((other) => other !== list && !other.alwaysPaged)!, 'limit=1'))
      .nextCursor!;
    const forged = (after: unknown) =>
      Buffer.from(JSON.stringify({ list: 'flows', after })).toString('base64url');
    for (const cursor of [
      'garbage',
      '!!!',
      foreign,
      Buffer.from('null').toString('base64url'),
      forged(['2026-02-30T00:00:00+00:00', '00000000-0000-4000-8000-000000000000']),
      forged(["'; DROP TABLE flows; --", 'x']),
      forged([1, 2, 3]),
    ]) {
      const response = await lan.get(`${list.url()}?limit=2&cursor=${encodeURIComponent(cursor)}`);
      expect(response.statusCode, cursor).toBe(400);
      expect(response.json()).toMatchObject({ status: 400, code: 'rule_violated' });
    }
  });

  it.each(lists.filter((list) => list.ownedId))(
    '$name: another user’s list is missing, paged or not',
    async (list) => {
      const cursor = (await page(list, 'limit=1')).nextCursor!;
      for (const query of [
        '',
        '?limit=2',
        `?limit=2&cursor=${encodeURIComponent(cursor)}`,
        '?cursor=garbage',
      ]) {
        const response = await mai.get(`${list.url()}${query}`);
        expect(response.statusCode, query).toBe(404);
        expect(response.json()).toMatchObject({ status: 404, code: 'not_found' });
      }
    },
  );

  it.each(lists.filter((list) => !list.ownedId))(
    '$name: another user’s pages hold only their own',
    async (list) => {
      const response = await mai.get(`${list.url()}?limit=200`);
      expect(response.statusCode).toBe(200);
      const mine = new Set((await whole(list)).map((item) => item.id));
      expect(response.json().items.filter((item: Item) => mine.has(item.id))).toEqual([]);
    },
  );

  it('documents limit and cursor on every paged list, and the answer as the array or a page', async () => {
    const document = (await lan.get('/api/openapi.json')).json();
    for (const { operation, alwaysPaged } of lists) {
      const documented = document.paths[operation[0]]?.[operation[1]];
      expect(documented, operation[0]).toBeDefined();
      const query = documented.parameters.filter((p: { in: string }) => p.in === 'query');
      expect(query.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['limit', 'cursor']));
      const answer = documented.responses['200'].content['application/json'].schema;
      const shapes = alwaysPaged ? [answer] : (answer.anyOf ?? answer.oneOf);
      expect(shapes.map((shape: { type: string }) => shape.type).sort()).toEqual(
        alwaysPaged ? ['object'] : ['array', 'object'],
      );
      const paged = shapes.find((shape: { type: string }) => shape.type === 'object');
      expect(Object.keys(paged.properties).sort()).toEqual(['items', 'nextCursor']);
    }
  });
});
