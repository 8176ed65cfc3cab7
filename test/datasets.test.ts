import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../src/api/database/connection';
import { checkProjections } from '../src/projections/check';
import { READ_MODEL_TABLES, rebuildProjections } from '../src/projections/rebuild';
import { TEST_APP_SECRET } from './support/database';
import { anotherAddress, as, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';
import { join, newWorkspace, ok, type Person } from './support/workspace-people';

async function snapshot(t: TestApp) {
  const tables: Record<string, unknown[]> = {};
  for (const table of [...READ_MODEL_TABLES, 'flows', 'steps']) {
    tables[table] = await t.db.sql.unsafe(`SELECT * FROM ${table} ORDER BY ${table}::text`);
  }
  return tables;
}

describe('datasets', () => {
  let t: TestApp;
  let ann: Person;
  let bob: Person;
  let flowId: string;
  let stepIds: string[];

  const call = (
    who: Person,
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    payload?: unknown,
    headers = {},
  ) =>
    t.app.inject({
      method,
      url,
      headers: { cookie: cookieOf(who), ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const cookies = new Map<Person, string>();
  const cookieOf = (who: Person) => cookies.get(who)!;
  /** A signed-up person, whose cookie the calls here send too. */
  const person = async (firstName: string): Promise<Person> => {
    const { cookie, user, email } = await signUp(t.app, firstName, { remoteAddress: anotherAddress() });
    const who = { client: as(t.app, cookie), id: user.id as string, email };
    cookies.set(who, cookie);
    return who;
  };
  const csv = (who: Person, datasetId: string, text: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/datasets/${datasetId}/items`,
      headers: { cookie: cookieOf(who), 'content-type': 'text/csv' },
      payload: text,
    });
  const eventCount = async () =>
    (await t.db.sql<{ count: number }[]>`SELECT count(*)::int AS count FROM events`)[0]!.count;

  beforeAll(async () => {
    t = await createTestApp();
    ann = await person('Ann');
    bob = await person('Bob');
    const made = await createFlow(ann.client, 'Blog', [
      { name: 'Ý tưởng', systemPrompt: 'List three ideas about the topic.', requiresUserInput: true },
      { name: 'Bài viết', systemPrompt: 'Write a post from [[step-1]].' },
    ]);
    flowId = made.flow.id;
    stepIds = made.steps.map((step: { id: string }) => step.id);
  });
  afterAll(() => t.close());

  it('makes a dataset of a flow, lists it, adds items as JSON and reads them', async () => {
    const dataset = ok(await call(ann, 'POST', '/api/datasets', { name: ' Câu hỏi ', flowId }), 201);
    expect(dataset).toMatchObject({ flowId, name: 'Câu hỏi', version: 1, itemCount: 0, archivedCount: 0 });
    expect(ok(await call(ann, 'GET', `/api/datasets?flowId=${flowId}`))).toEqual([dataset]);
    expect(ok(await call(ann, 'GET', `/api/datasets?flowId=${flowId}&limit=1`)).items).toHaveLength(1);

    const added = ok(
      await call(ann, 'POST', `/api/datasets/${dataset.id}/items`, {
        items: [
          {
            inputs: { [stepIds[0]!]: 'trà xanh' },
            expected: { [stepIds[1]!]: 'Một bài về trà' },
            tags: ['tea'],
          },
          { inputs: { 'not-a-step': 'x' } },
        ],
      }),
      201,
    );
    expect(added).toMatchObject({ datasetId: dataset.id, version: 2, unknownKeys: ['not-a-step'] });
    expect(added.itemIds).toHaveLength(2);

    const read = ok(await call(ann, 'GET', `/api/datasets/${dataset.id}`));
    expect(read).toMatchObject({ version: 2, itemCount: 2 });
    expect(read.items[0]).toMatchObject({
      id: added.itemIds[0],
      inputs: { [stepIds[0]!]: 'trà xanh' },
      expected: { [stepIds[1]!]: 'Một bài về trà' },
      tags: ['tea'],
      source: 'manual',
      sourceExecutionId: null,
      archived: false,
      addedInVersion: 2,
    });

    // The same Idempotency-Key sent again answers the first outcome and adds nothing.
    const key = { 'idempotency-key': crypto.randomUUID() };
    const body = { items: [{ inputs: { a: 'once' } }] };
    const first = ok(await call(ann, 'POST', `/api/datasets/${dataset.id}/items`, body, key), 201);
    const again = ok(await call(ann, 'POST', `/api/datasets/${dataset.id}/items`, body, key), 201);
    expect(again.itemIds).toEqual(first.itemIds);
    expect(ok(await call(ann, 'GET', `/api/datasets/${dataset.id}`)).itemCount).toBe(3);

    const renamed = ok(await call(ann, 'PATCH', `/api/datasets/${dataset.id}`, { name: 'Tên mới' }));
    expect(renamed).toMatchObject({ name: 'Tên mới', version: 4 });
  });

  it('refuses bad input with 400 and stores nothing', async () => {
    const dataset = ok(await call(ann, 'POST', '/api/datasets', { name: 'Lỗi', flowId }), 201);
    const before = await eventCount();
    const bad = [
      { items: [] },
      { items: [{ inputs: {} }] },
      { items: [{ inputs: { 'có dấu cách': 'x' } }] },
      { items: [{ inputs: { a: 'x'.repeat(20_001) } }] },
      { items: [{ inputs: { a: 'x' }, tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }] },
      { items: [{ inputs: { a: 'x' }, extra: 1 }] },
    ];
    for (const body of bad) {
      const answer = await call(ann, 'POST', `/api/datasets/${dataset.id}/items`, body);
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().detail).toEqual(expect.any(String));
    }
    expect((await call(ann, 'POST', '/api/datasets', { name: '  ', flowId })).statusCode).toBe(400);
    expect((await call(ann, 'POST', '/api/datasets', { name: 'x'.repeat(101), flowId })).statusCode).toBe(
      400,
    );
    expect(await eventCount()).toBe(before);
  });

  it('adds the rows of a CSV file, and refuses a malformed or oversized one naming the line', async () => {
    const dataset = ok(await call(ann, 'POST', '/api/datasets', { name: 'CSV', flowId }), 201);
    const file = [
      'Ý tưởng,expected:Bài viết,tags',
      'trà xanh,"Một bài, ""hay""",a;b',
      `"nhiều\r\ndòng",,`,
      '',
    ].join('\r\n');
    const added = ok(await csv(ann, dataset.id, file), 201);
    expect(added).toMatchObject({ version: 2, unknownKeys: [] });
    const read = ok(await call(ann, 'GET', `/api/datasets/${dataset.id}`));
    expect(
      read.items.map((item: { inputs: unknown; expected: unknown; tags: unknown; source: string }) => item),
    ).toEqual([
      expect.objectContaining({
        inputs: { [stepIds[0]!]: 'trà xanh' },
        expected: { [stepIds[1]!]: 'Một bài, "hay"' },
        tags: ['a', 'b'],
        source: 'csv',
      }),
      expect.objectContaining({ inputs: { [stepIds[0]!]: 'nhiều\r\ndòng' }, expected: {}, tags: [] }),
    ]);

    // Past the JSON body limit (4 MB) and within the CSV's own (5 MB): taken.
    const large = `Ý tưởng\n${Array.from({ length: 450 }, () => 'x'.repeat(10_000)).join('\n')}\n`;
    expect(large.length).toBeGreaterThan(4 * 1024 * 1024);
    expect(ok(await csv(ann, dataset.id, large), 201).itemIds).toHaveLength(450);

    const before = await eventCount();
    const malformed = await csv(ann, dataset.id, 'Ý tưởng,tags\nok,a\n"open,b\n');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().detail).toMatch(/^CSV dòng 3: /);
    const ragged = await csv(ann, dataset.id, 'Ý tưởng,tags\nok\n');
    expect(ragged.json().detail).toMatch(/^CSV dòng 2: có 1 cột/);
    const oversized = await csv(ann, dataset.id, `Ý tưởng\n${'x'.repeat(5 * 1024 * 1024 + 10)}\n`);
    expect(oversized.statusCode).toBe(413);
    const wrongType = await call(ann, 'POST', `/api/datasets/${dataset.id}/items`, '"a,b"', {
      'content-type': 'application/json',
    });
    expect(wrongType.statusCode).toBe(400);
    const nul = await csv(ann, dataset.id, 'Ý tưởng\nok\nbad\u0000cell\n');
    expect(nul.statusCode).toBe(400);
    expect(nul.json().detail).toMatch(/^CSV dòng 3: chứa ký tự không lưu được/);
    expect(await eventCount()).toBe(before);
  });

  it("captures a run's user inputs and approved results as an item", async () => {
    const dataset = ok(await call(ann, 'POST', '/api/datasets', { name: 'Runs', flowId }), 201);
    const execution = ok(await ann.client.post(`/api/flows/${flowId}/execute`), 201);
    const run = ok(
      await ann.client.post(`/api/executions/${execution.id}/steps/${stepIds[0]}/execute`, {
        userInput: 'trà ô long',
      }),
    );
    const result = run.results[0];
    ok(await ann.client.put(`/api/step-results/${result.id}`, { approved: true }));
    const added = ok(
      await call(ann, 'POST', `/api/datasets/${dataset.id}/items/from-execution`, {
        executionId: execution.id,
        tags: ['from-run'],
      }),
      201,
    );
    const read = ok(await call(ann, 'GET', `/api/datasets/${dataset.id}`));
    expect(read.items).toEqual([
      expect.objectContaining({
        id: added.itemIds[0],
        inputs: { [stepIds[0]!]: 'trà ô long' },
        expected: { [stepIds[0]!]: result.result },
        tags: ['from-run'],
        source: 'execution',
        sourceExecutionId: execution.id,
      }),
    ]);

    // A run of another flow is refused; an execution nobody may show Bob is missing to him.
    const other = await createFlow(ann.client, 'Other', [{ name: 'One', systemPrompt: 'Say hi.' }]);
    const otherRun = ok(await ann.client.post(`/api/flows/${other.flow.id}/execute`), 201);
    const refused = await call(ann, 'POST', `/api/datasets/${dataset.id}/items/from-execution`, {
      executionId: otherRun.id,
    });
    expect(refused.statusCode).toBe(400);
    const empty = ok(await ann.client.post(`/api/flows/${flowId}/execute`), 201);
    const nothing = await call(ann, 'POST', `/api/datasets/${dataset.id}/items/from-execution`, {
      executionId: empty.id,
    });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().detail).toMatch(/chưa có user input/);
  });

  it('archives and restores items, and reads any earlier version as it stood', async () => {
    const dataset = ok(await call(ann, 'POST', '/api/datasets', { name: 'Versions', flowId }), 201);
    const first = ok(
      await call(ann, 'POST', `/api/datasets/${dataset.id}/items`, { items: [{ inputs: { a: '1' } }] }),
      201,
    );
    const itemId = first.itemIds[0];
    const archived = ok(await call(ann, 'POST', `/api/datasets/${dataset.id}/items/${itemId}/archive`));
    expect(archived).toEqual({ datasetId: dataset.id, itemId, archived: true, version: 3 });
    // Archiving again changes nothing: no new version.
    expect(ok(await call(ann, 'POST', `/api/datasets/${dataset.id}/items/${itemId}/archive`)).version).toBe(
      3,
    );
    ok(
      await call(ann, 'POST', `/api/datasets/${dataset.id}/items`, { items: [{ inputs: { a: '2' } }] }),
      201,
    );
    const restored = ok(await call(ann, 'POST', `/api/datasets/${dataset.id}/items/${itemId}/restore`));
    expect(restored).toMatchObject({ archived: false, version: 5 });

    const at = async (version: number) =>
      ok(await call(ann, 'GET', `/api/datasets/${dataset.id}?version=${version}`));
    expect((await at(1)).items).toEqual([]);
    expect((await at(2)).items.map((item: { archived: boolean }) => item.archived)).toEqual([false]);
    expect((await at(3)).items.map((item: { archived: boolean }) => item.archived)).toEqual([true]);
    expect((await at(4)).items.map((item: { archived: boolean }) => item.archived)).toEqual([true, false]);
    // The newest version read from the stream is the read model's, item for item.
    const now = ok(await call(ann, 'GET', `/api/datasets/${dataset.id}`));
    expect(await at(5)).toEqual(now);
    const older = ok(await call(ann, 'GET', `/api/datasets/${dataset.id}?version=4`));
    expect(older).toMatchObject({ version: 4, itemCount: 2, archivedCount: 1 });
    const ahead = await call(ann, 'GET', `/api/datasets/${dataset.id}?version=6`);
    expect(ahead.statusCode).toBe(404);
    const unknown = await call(
      ann,
      'POST',
      `/api/datasets/${dataset.id}/items/${crypto.randomUUID()}/archive`,
    );
    expect(unknown.statusCode).toBe(404);
  });

  it("answers 404 for another user's dataset and flow, whatever the call", async () => {
    const dataset = ok(await call(ann, 'POST', '/api/datasets', { name: 'Mine', flowId }), 201);
    const { itemIds } = ok(
      await call(ann, 'POST', `/api/datasets/${dataset.id}/items`, { items: [{ inputs: { a: '1' } }] }),
      201,
    );
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `/api/datasets/${dataset.id}`],
      ['GET', `/api/datasets?flowId=${flowId}`],
      ['PATCH', `/api/datasets/${dataset.id}`, { name: 'Theirs' }],
      ['POST', `/api/datasets/${dataset.id}/items`, { items: [{ inputs: { a: '1' } }] }],
      ['POST', `/api/datasets/${dataset.id}/items/${itemIds[0]}/archive`],
      ['POST', '/api/datasets', { name: 'In their flow', flowId }],
    ];
    for (const [method, url, body] of calls) {
      const answer = await call(bob, method as 'GET', url, body);
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await csv(bob, dataset.id, 'a\nb\n')).statusCode).toBe(404);
    // Their own run of a flow of theirs, into this dataset: 404 for the dataset, before any word on the run.
    const theirs = await createFlow(bob.client, 'Theirs', [{ name: 'One', systemPrompt: 'Say one thing.' }]);
    const theirRun = ok(await bob.client.post(`/api/flows/${theirs.flow.id}/execute`), 201);
    const captured = await call(bob, 'POST', `/api/datasets/${dataset.id}/items/from-execution`, {
      executionId: theirRun.id,
    });
    expect(captured.statusCode).toBe(404);
    expect(captured.json().detail).toBe('Không tìm thấy dataset');
  });

  it("follows the flow's workspace: its members read or change datasets as their role allows", async () => {
    const owner = await person('Owner');
    const auditor = await person('Auditor');
    const editor = await person('Editor');
    const { id: workspaceId } = await newWorkspace(owner);
    await join(owner, workspaceId, auditor, 'auditor');
    await join(owner, workspaceId, editor, 'editor');
    const flow = ok(
      await owner.client.post('/api/flows', { name: 'Shared', description: 'A team flow', workspaceId }),
      201,
    );
    const dataset = ok(await call(editor, 'POST', '/api/datasets', { name: 'Team', flowId: flow.id }), 201);
    expect(ok(await call(auditor, 'GET', `/api/datasets/${dataset.id}`)).name).toBe('Team');
    const refused = await call(auditor, 'PATCH', `/api/datasets/${dataset.id}`, { name: 'No' });
    expect(refused.statusCode).toBe(403);
    expect((await call(auditor, 'POST', '/api/datasets', { name: 'No', flowId: flow.id })).statusCode).toBe(
      403,
    );
    ok(
      await call(editor, 'POST', `/api/datasets/${dataset.id}/items`, { items: [{ inputs: { a: '1' } }] }),
      201,
    );
    expect((await call(bob, 'GET', `/api/datasets/${dataset.id}`)).statusCode).toBe(404);

    // A dataset of the owner's own flow is theirs alone, until the flow moves into the workspace.
    const own = ok(await owner.client.post('/api/flows', { name: 'Own', description: 'Mine for now' }), 201);
    const moving = ok(await call(owner, 'POST', '/api/datasets', { name: 'Moves', flowId: own.id }), 201);
    expect((await call(auditor, 'GET', `/api/datasets/${moving.id}`)).statusCode).toBe(404);
    ok(await owner.client.post(`/api/flows/${own.id}/move`, { workspaceId }));
    expect(ok(await call(auditor, 'GET', `/api/datasets/${moving.id}`)).name).toBe('Moves');
    expect(ok(await call(auditor, 'GET', `/api/datasets?flowId=${own.id}`))).toHaveLength(1);
  });

  it('rebuild reproduces the dataset read models row for row, and the check finds no difference', async () => {
    const inline = await snapshot(t);
    expect(inline.datasets!.length).toBeGreaterThan(4);
    expect(inline.dataset_items!.length).toBeGreaterThan(5);
    for (const batchSize of [3, 1000]) {
      await rebuildProjections(t.db.sql, t.store, batchSize);
      expect(await snapshot(t), `batch size ${batchSize}`).toEqual(inline);
    }
    // The check replays the log beside the read models and finds them equal.
    const one = connect(t.db.url, { max: 1, appSecret: TEST_APP_SECRET });
    try {
      const { differences, rows } = await checkProjections(one);
      expect(differences).toEqual([]);
      expect(rows).toBeGreaterThan(inline.dataset_items!.length);
    } finally {
      await one.end();
    }
  });
});
