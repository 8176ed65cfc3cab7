import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../src/api/http/pages';
import { EXPERIMENT_MESSAGES } from '../src/domain/experiment/decider';
import { MAX_EXPERIMENTS_PER_FLOW, MAX_RUNNING_EXPERIMENTS_PER_USER } from '../src/domain/limits';
import { abortableGatedModel } from './support/abortable-gated-model';
import { createTestApp, type TestApp } from './support/test-app';
import { ok, type Person, person } from './support/workspace-people';

/**
 * The experiments limits, held when starts come at once: no more running per user than
 * MAX_RUNNING_EXPERIMENTS_PER_USER, no more per flow than MAX_EXPERIMENTS_PER_FLOW, however many are sent.
 */
describe('experiments started at once', () => {
  let t: TestApp;
  const held = abortableGatedModel();

  beforeAll(async () => {
    t = await createTestApp(
      { freeStepAllowance: 100_000, shutdownGraceMs: 1_000 },
      { resolveModel: () => ({ provider: held.provider, keySource: 'offline' }) },
    );
  });
  afterAll(async () => {
    held.open();
    await t.close();
  });

  /** A one-step flow with a dataset of `items` items, and the request that starts an experiment of it. */
  const experimentRequest = async (who: Person, items = 1) => {
    const flow = ok(await who.client.post('/api/flows', { name: 'Tea', description: 'Tea' }), 201);
    const step = ok(
      await who.client.post('/api/steps', {
        flowId: flow.id,
        name: 'Ideas',
        order: 1,
        systemPrompt: 'Ideas about the topic.',
        requiresUserInput: true,
      }),
      201,
    );
    const dataset = ok(await who.client.post('/api/datasets', { name: 'Topics', flowId: flow.id }), 201);
    ok(
      await who.client.post(`/api/datasets/${dataset.id}/items`, {
        items: Array.from({ length: items }, (_, i) => ({ inputs: { [step.id]: `tea ${i}` } })),
      }),
      201,
    );
    const version = Number(
      String((await who.client.get(`/api/flows/${flow.id}`)).headers.etag).replace(/\D/g, ''),
    );
    return {
      flowId: flow.id as string,
      flowVersion: version,
      datasetId: dataset.id as string,
      review: { [step.id]: 'auto' },
      concurrency: 1,
    };
  };
  const startAtOnce = (who: Person, request: object, n: number) =>
    Promise.all(Array.from({ length: n }, () => who.client.post('/api/experiments', request)));
  const experimentsWhere = async (column: 'flow_id' | 'started_by', id: string) =>
    (
      await t.db.sql<{ n: number; running: number }[]>`
        SELECT count(*)::int AS n,
               (count(*) FILTER (WHERE completed_at IS NULL AND stopped_at IS NULL))::int AS running
        FROM experiments WHERE ${t.db.sql(column)} = ${id}`
    )[0]!;

  it(`lets one user have ${MAX_RUNNING_EXPERIMENTS_PER_USER} running, however many starts are sent at once`, {
    timeout: 60_000,
  }, async () => {
    const ann = await person(t.app, 'Ann');
    const request = await experimentRequest(ann);
    const answers = await startAtOnce(ann, request, MAX_RUNNING_EXPERIMENTS_PER_USER + 5);
    const started = answers.filter((answer) => answer.statusCode === 202);
    expect(started).toHaveLength(MAX_RUNNING_EXPERIMENTS_PER_USER);
    for (const refused of answers.filter((answer) => answer.statusCode !== 202)) {
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().detail).toBe(EXPERIMENT_MESSAGES.tooManyRunning);
    }
    expect(await experimentsWhere('started_by', ann.id)).toEqual({
      n: MAX_RUNNING_EXPERIMENTS_PER_USER,
      running: MAX_RUNNING_EXPERIMENTS_PER_USER,
    });
    // Their runs wait for the model: none has ended, and a stopped one frees its place.
    await vi.waitFor(() => expect(held.waiting()).toBe(MAX_RUNNING_EXPERIMENTS_PER_USER), {
      timeout: 30_000,
      interval: 50,
    });
    ok(await ann.client.post(`/api/experiments/${started[0]!.json().id}/stop`, {}));
    ok(await ann.client.post('/api/experiments', request), 202);
  });

  it(`holds a flow to ${MAX_EXPERIMENTS_PER_FLOW} experiments when the last ones are started at once`, {
    timeout: 60_000,
  }, async () => {
    const bea = await person(t.app, 'Bea');
    const request = await experimentRequest(bea);
    // The flow's earlier experiments, ended: rows as the read model has them, as if started long ago.
    const filler = MAX_EXPERIMENTS_PER_FLOW - 3;
    await t.db.sql`
      INSERT INTO experiments (id, flow_id, flow_version, dataset_id, dataset_version, runs_total, runs_finished,
                               started_by, started_at, completed_at, updated_at, position)
      SELECT gen_random_uuid(), ${request.flowId}, ${request.flowVersion}, ${request.datasetId}, 1, 1, 1,
             ${bea.id}, now() - interval '1 day', now() - interval '1 day', now() - interval '1 day', 3
      FROM generate_series(1, ${filler})`;
    const answers = await startAtOnce(bea, request, 3 + 5);
    expect(answers.filter((answer) => answer.statusCode === 202)).toHaveLength(3);
    for (const refused of answers.filter((answer) => answer.statusCode !== 202)) {
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().detail).toBe(EXPERIMENT_MESSAGES.tooManyOfFlow);
    }
    expect((await experimentsWhere('flow_id', request.flowId)).n).toBe(MAX_EXPERIMENTS_PER_FLOW);
  });

  it('answers a comparison a page of rows at a time, its summaries whole on each page', {
    timeout: 60_000,
  }, async () => {
    held.open();
    const cy = await person(t.app, 'Cy');
    const request = await experimentRequest(cy, 60);
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) ids.push(ok(await cy.client.post('/api/experiments', request), 202).id);
    await vi.waitFor(
      async () => {
        for (const id of ids)
          expect(ok(await cy.client.get(`/api/experiments/${id}`)).status).toBe('completed');
      },
      { timeout: 30_000, interval: 50 },
    );
    const url = `/api/experiments/compare?ids=${ids.join(',')}`;
    // 60 items, each a row of its one step (no scorer: no row of the whole run): never all of them unasked.
    const first = ok(await cy.client.get(url));
    expect(first.rows).toHaveLength(DEFAULT_PAGE_SIZE);
    expect(first.nextCursor).toEqual(expect.any(String));
    const rows: { itemId: string; stepId: string | null }[] = [];
    let cursor: string | null = null;
    do {
      const page = ok(await cy.client.get(`${url}&limit=25${cursor === null ? '' : `&cursor=${cursor}`}`));
      expect(page.rows.length).toBeLessThanOrEqual(25);
      expect(page.summaries).toEqual(first.summaries);
      rows.push(...page.rows);
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(rows).toHaveLength(60);
    expect(new Set(rows.map((row) => `${row.itemId}/${row.stepId}`)).size).toBe(60);
    expect(rows.slice(0, DEFAULT_PAGE_SIZE)).toEqual(first.rows);
    expect(first.summaries.find((s: { stepId: string | null }) => s.stepId === null).rows).toBe(60);
    const tooMany = await cy.client.get(`${url}&limit=${MAX_PAGE_SIZE + 1}`);
    expect(tooMany.statusCode).toBe(400);
  });
});
