import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TOO_MANY_DATASETS } from '../src/domain/dataset/decider';
import { MAX_DATASETS_PER_FLOW } from '../src/domain/limits';
import { anotherInstance, createFlow, createTestApp, OFFLINE_MODEL, type TestApp } from './support/test-app';
import { join, newWorkspace, ok, type Person, person } from './support/workspace-people';

/**
 * The datasets and experiments routes as someone sending what the web app never sends: bodies of the wrong
 * type, values nested or sized past what the product takes, ids in capitals, the last datasets a flow may
 * have made at once; and an experiment whose starter has left its workspace. Each is answered 2xx, or 4xx
 * with the reason and nothing of it stored.
 */
describe('datasets and experiments, sent what no screen sends', () => {
  let t: TestApp;
  let ann: Person;
  let flowId: string;
  let stepIds: string[];
  let datasetId: string;
  let itemId: string;

  const send = (method: 'POST' | 'PATCH', url: string, payload: string, contentType: string) =>
    t.app.inject({
      method,
      url,
      headers: { cookie: ann.client.cookie, 'content-type': contentType },
      payload,
    });
  const flowVersion = async () =>
    Number(String((await ann.client.get(`/api/flows/${flowId}`)).headers.etag).replace(/\D/g, ''));
  /**
   * An owner's workspace flow of one step with a dataset of `inputs`, and an experiment of it started by an
   * editor of the workspace, the step reviewed as `review`, with `extra` fields.
   */
  const editorsExperiment = async (
    [ownerName, editorName, workspaceName]: [string, string, string],
    inputs: string[],
    review: 'human' | 'auto',
    extra: Record<string, unknown> = {},
  ) => {
    const owner = await person(t.app, ownerName);
    const editor = await person(t.app, editorName);
    const { id: workspaceId } = await newWorkspace(owner, workspaceName);
    await join(owner, workspaceId, editor, 'editor');
    const flow = ok(
      await owner.client.post('/api/flows', { name: 'Team', description: 'd', workspaceId }),
      201,
    );
    const step = ok(
      await owner.client.post('/api/steps', {
        flowId: flow.id,
        name: 'Ideas',
        order: 1,
        systemPrompt: 'x',
        requiresUserInput: true,
      }),
      201,
    );
    const dataset = ok(await owner.client.post('/api/datasets', { name: 'D', flowId: flow.id }), 201);
    const items = inputs.map((input) => ({ inputs: { [step.id]: input } }));
    ok(await owner.client.post(`/api/datasets/${dataset.id}/items`, { items }), 201);
    const version = Number(
      String((await owner.client.get(`/api/flows/${flow.id}`)).headers.etag).replace(/\D/g, ''),
    );
    const started: { id: string } = ok(
      await editor.client.post('/api/experiments', {
        flowId: flow.id,
        flowVersion: version,
        datasetId: dataset.id,
        review: { [step.id]: review },
        ...extra,
      }),
      202,
    );
    const read = async () => ok(await owner.client.get(`/api/experiments/${started.id}`));
    /** Until `count` of its runs wait for people. */
    const waitingFor = (count: number) =>
      vi.waitFor(async () => expect((await read()).counts.waiting).toBe(count), {
        timeout: 30_000,
        interval: 50,
      });
    return { owner, editor, workspaceId, started, read, waitingFor };
  };
  const eventCount = async () =>
    (await t.db.sql<{ count: number }[]>`SELECT count(*)::int AS count FROM events`)[0]!.count;

  beforeAll(async () => {
    t = await createTestApp({}, OFFLINE_MODEL);
    ann = await person(t.app, 'Ann');
    const made = await createFlow(ann.client, 'Blog', [
      { name: 'Ideas', systemPrompt: 'List three ideas about the topic.', requiresUserInput: true },
    ]);
    flowId = made.flow.id;
    stepIds = made.steps.map((step: { id: string }) => step.id);
    datasetId = ok(await ann.client.post('/api/datasets', { name: 'Topics', flowId }), 201).id;
    const added = ok(
      await ann.client.post(`/api/datasets/${datasetId}/items`, {
        items: [{ inputs: { [stepIds[0]!]: 'tea' } }],
      }),
      201,
    );
    itemId = added.itemIds[0];
  });
  afterAll(() => t.close());

  it('answers 400 to items sent as neither JSON nor CSV, naming the two it takes', async () => {
    const before = await eventCount();
    const answer = await send('POST', `/api/datasets/${datasetId}/items`, 'Ideas\ntea\n', 'text/plain');
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().detail).toContain('text/csv');
    expect(await eventCount()).toBe(before);
  });

  it('answers 400 to a jsonSchema scorer nested too deep to walk, however deep, and starts nothing', async () => {
    const before = await eventCount();
    const version = await flowVersion();
    for (const depth of [9_900, 1_000_000]) {
      const schema = `{"const":${'['.repeat(depth)}1${']'.repeat(depth)}}`;
      const answer = await send(
        'POST',
        '/api/experiments',
        `{"flowId":"${flowId}","flowVersion":${version},"datasetId":"${datasetId}","scorers":[{"type":"jsonSchema","schema":${schema}}]}`,
        'application/json',
      );
      expect(answer.statusCode, answer.body.slice(0, 300)).toBe(400);
      expect(answer.json().detail).toContain('lồng nhau quá sâu');
    }
    expect(await eventCount()).toBe(before);
  });

  it('takes a CSV file only where items are added: text/csv sent to any other dataset route is 415', async () => {
    const before = await eventCount();
    const item = `/api/datasets/${datasetId}/items/${itemId}`;
    for (const [method, url] of [
      ['POST', '/api/datasets'],
      ['PATCH', `/api/datasets/${datasetId}`],
      ['POST', `/api/datasets/${datasetId}/items/from-execution`],
      ['POST', `${item}/archive`],
      ['POST', `${item}/restore`],
    ] as const) {
      const answer = await send(method, url, 'name\nTopics\n', 'text/csv');
      expect(answer.statusCode, `${method} ${url}: ${answer.body}`).toBe(415);
      expect(answer.json().detail).toContain('text/csv');
    }
    expect(await eventCount()).toBe(before);
    expect(ok(await ann.client.get(`/api/datasets/${datasetId}`)).items[0].archived).toBe(false);
  });

  it('answers 413 to a CSV file past its limit naming that limit (5 MB), and to a JSON body past 4 MB naming 4 MB', async () => {
    const csv = await send(
      'POST',
      `/api/datasets/${datasetId}/items`,
      `Ideas\n${'x'.repeat(5 * 1024 * 1024 + 10)}\n`,
      'text/csv',
    );
    expect(csv.statusCode).toBe(413);
    expect(csv.json().detail).toContain('5 MB');
    const json = await send(
      'PATCH',
      `/api/datasets/${datasetId}`,
      JSON.stringify({ name: 'x'.repeat(4 * 1024 * 1024 + 10) }),
      'application/json',
    );
    expect(json.statusCode).toBe(413);
    expect(json.json().detail).toContain('4 MB');
  });

  it("names a refused field once: the rule's own words already start with the field", async () => {
    const blank = await ann.client.post('/api/datasets', { name: '  ', flowId });
    expect(blank.json().detail).toBe('name: tên dataset không được để trống');
    const many = Array.from({ length: 501 }, () => ({ inputs: { a: 'x' } }));
    const tooMany = await ann.client.post(`/api/datasets/${datasetId}/items`, { items: many });
    expect(tooMany.json().detail).toBe('items: tối đa 500 item mỗi lần thêm');
    // A message that does not start with its field still gets it.
    const extra = await ann.client.post('/api/datasets', { name: 'x', flowId: 'nope' });
    expect(extra.json().detail).toBe('flowId: UUID không hợp lệ');
  });

  it('takes an id in capitals as the record it names: read, changed, started from and compared once', async () => {
    const upper = (id: string) => id.toUpperCase();
    expect(ok(await ann.client.get(`/api/datasets/${upper(datasetId)}?version=2`)).items).toHaveLength(1);
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/api/datasets/${upper(datasetId)}`,
      headers: { cookie: ann.client.cookie },
      payload: { name: 'Topics again' },
    });
    expect(ok(renamed)).toMatchObject({ id: datasetId, name: 'Topics again' });
    ok(await ann.client.post(`/api/datasets/${upper(datasetId)}/items/${upper(itemId)}/archive`, {}));
    ok(await ann.client.post(`/api/datasets/${datasetId}/items/${itemId}/restore`, {}));

    const started = ok(
      await ann.client.post('/api/experiments', {
        flowId: upper(flowId),
        flowVersion: await flowVersion(),
        datasetId: upper(datasetId),
        datasetVersion: 2,
        review: { [stepIds[0]!]: 'auto' },
      }),
      202,
    );
    expect(started).toMatchObject({ flowId, datasetId, datasetVersion: 2 });
    await vi.waitFor(
      async () =>
        expect(ok(await ann.client.get(`/api/experiments/${upper(started.id)}`)).status).toBe('completed'),
      { timeout: 30_000, interval: 50 },
    );
    const compared = ok(
      await ann.client.get(`/api/experiments/compare?ids=${started.id},${upper(started.id)}`),
    );
    expect(compared.experimentIds).toEqual([started.id]);
    ok(await ann.client.post(`/api/experiments/${upper(started.id)}/promote`, {}));
  });

  it('holds a flow to its datasets limit when the last ones are made at once', {
    timeout: 60_000,
  }, async () => {
    const { flow } = await createFlow(ann.client, 'Many', [{ name: 'Only', systemPrompt: 'x' }]);
    const count = async () =>
      (
        await t.db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM datasets WHERE flow_id = ${flow.id}`
      )[0]!.n;
    for (let i = count(); (await i) < MAX_DATASETS_PER_FLOW - 5; i = count())
      ok(await ann.client.post('/api/datasets', { name: 'Filler', flowId: flow.id }), 201);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        ann.client.post('/api/datasets', { name: `At once ${i}`, flowId: flow.id }),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(5);
    for (const refused of answers.filter((answer) => answer.statusCode !== 201)) {
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().detail).toBe(TOO_MANY_DATASETS);
    }
    expect(await count()).toBe(MAX_DATASETS_PER_FLOW);
  });

  it('stops an experiment whose starter has left the workspace: its waiting runs end stopped', async () => {
    const { owner, editor, workspaceId, started, read, waitingFor } = await editorsExperiment(
      ['Olga', 'Eddie', 'Left'],
      ['tea', 'coffee'],
      'human',
    );
    await waitingFor(2);

    expect(
      (await owner.client.delete(`/api/workspaces/${workspaceId}/members/${editor.id}`)).statusCode,
    ).toBe(204);
    ok(await owner.client.post(`/api/experiments/${started.id}/stop`, {}));
    expect(await read()).toMatchObject({ status: 'stopped', counts: { waiting: 0, stopped: 2 } });
  });

  for (const [how, lose] of [
    [
      'has left its workspace',
      (owner: Person, workspaceId: string, editor: Person) =>
        owner.client.delete(`/api/workspaces/${workspaceId}/members/${editor.id}`),
    ],
    [
      'may no longer run its flow (made a reviewer)',
      (owner: Person, workspaceId: string, editor: Person) =>
        owner.client.put(`/api/workspaces/${workspaceId}/members/${editor.id}`, { role: 'reviewer' }),
    ],
  ] as const)
    it(`ends on its own an experiment whose starter ${how}: stopped with the reason, its waiting runs ended, swept no more`, {
      timeout: 60_000,
    }, async () => {
      const { owner, editor, workspaceId, started, read, waitingFor } = await editorsExperiment(
        ['Omar', 'Emma', 'Ended'],
        ['tea', 'coffee'],
        'human',
      );
      await waitingFor(2);
      const events = async () =>
        (
          await t.db.sql<{ type: string; data: Record<string, unknown> }[]>`
            SELECT event_type AS type, data FROM events
            WHERE stream_id = ${`experiment-${started.id}`} ORDER BY stream_position`
        ).map(({ type, data }) => ({ type, reason: data.reason }));
      // Two instances on the one database, whose sweeps (as every 30 s) find it at once.
      const other = await anotherInstance(t.db.url, {}, OFFLINE_MODEL);
      const warnings = [vi.spyOn(t.app.log, 'warn'), vi.spyOn(other.app.log, 'warn')];
      const sweepFailed = () =>
        warnings.flatMap((warn) =>
          warn.mock.calls.filter(
            ([fields, message]) =>
              message === 'experiment sweep failed' &&
              (fields as { experimentId?: string }).experimentId === started.id,
          ),
        );
      const sweepBoth = () =>
        Promise.all([
          t.app.experimentRunner.sweep(async () => {}),
          other.app.experimentRunner.sweep(async () => {}),
        ]);
      try {
        expect((await lose(owner, workspaceId, editor)).statusCode).toBeLessThan(300);
        // The sweeps end the experiment instead of failing on it.
        await vi.waitFor(
          async () => {
            await sweepBoth();
            expect((await read()).status).toBe('stopped');
          },
          { timeout: 30_000, interval: 50 },
        );
        expect(await read()).toMatchObject({
          status: 'stopped',
          stopReason: 'starterCannotRun',
          counts: { waiting: 0, stopped: 2, finished: 2 },
        });
        const ended = await events();
        expect(ended.filter((event) => event.type === 'ExperimentStopped')).toEqual([
          { type: 'ExperimentStopped', reason: 'starterCannotRun' },
        ]);
        expect(ended.filter((event) => event.type === 'ExperimentRunFinished')).toHaveLength(2);

        // The next sweeps pass it by: nothing more is recorded, nothing fails.
        await sweepBoth();
        await sweepBoth();
        expect(await events()).toEqual(ended);
        expect(sweepFailed()).toEqual([]);
      } finally {
        for (const warn of warnings) warn.mockRestore();
        await other.close();
      }
    });

  it('scores again an experiment whose starter has left the workspace, keeping its scores', async () => {
    const { owner, editor, workspaceId, started } = await editorsExperiment(
      ['Oscar', 'Erin', 'Rescored'],
      ['tea'],
      'auto',
      { scorers: [{ type: 'length', min: 1 }] },
    );
    await vi.waitFor(
      async () =>
        expect(ok(await owner.client.get(`/api/experiments/${started.id}`)).status).toBe('completed'),
      { timeout: 30_000, interval: 50 },
    );
    const passRates = async () =>
      ok(await owner.client.get(`/api/experiments/compare?ids=${started.id}`)).summaries[0].passRates;
    expect(await passRates()).toMatchObject({ length: 1 });

    expect(
      (await owner.client.delete(`/api/workspaces/${workspaceId}/members/${editor.id}`)).statusCode,
    ).toBe(204);
    ok(await owner.client.post(`/api/experiments/${started.id}/score-again`, {}));
    expect(await passRates()).toMatchObject({ length: 1 });
  });

  it('answers 422 to a CSV file sent with the Idempotency-Key of another file, and stores nothing of it', async () => {
    const key = { 'idempotency-key': crypto.randomUUID() };
    const upload = (csv: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/datasets/${datasetId}/items`,
        headers: { cookie: ann.client.cookie, 'content-type': 'text/csv', ...key },
        payload: csv,
      });
    const first = ok(await upload('Ideas\ngreen tea\n'), 201);
    expect(ok(await upload('Ideas\ngreen tea\n'), 201).itemIds).toEqual(first.itemIds);
    const before = await eventCount();
    const other = await upload('Ideas\nblack coffee\n');
    expect(other.statusCode, other.body).toBe(422);
    expect(await eventCount()).toBe(before);
  });

  it('refuses a scorer with a field no scorer of its type has, naming it, instead of dropping it', async () => {
    const before = await eventCount();
    const answer = await ann.client.post('/api/experiments', {
      flowId,
      flowVersion: await flowVersion(),
      datasetId,
      scorers: [{ type: 'length', min: 1, maxLength: 10 }],
    });
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().detail).toContain('maxLength');
    expect(await eventCount()).toBe(before);
  });
});
