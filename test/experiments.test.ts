import { trace } from '@opentelemetry/api';
import { node } from '@opentelemetry/sdk-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ModelProvider, ModelRequest } from '../src/ai';
import { connect } from '../src/api/database/connection';
import type { ExperimentView } from '../src/api/experiments/experiment-commands';
import type { CompareRow } from '../src/domain/experiment/compare';
import { JUDGE_INSTRUCTION } from '../src/domain/experiment/judge';
import { checkProjections } from '../src/projections/check';
import { rebuildProjections } from '../src/projections/rebuild';
import { TEST_APP_SECRET } from './support/database';
import { createTestApp, type TestApp } from './support/test-app';
import { join, newWorkspace, ok, type Person, person } from './support/workspace-people';

/**
 * A model that counts its calls by the step marker in their prompt (STEP1, STEP2, STEP3, or a judge's) and
 * answers each from its prompt, so a changed prompt gives a changed answer.
 */
function countingModel() {
  const calls: ModelRequest[] = [];
  const provider: ModelProvider = {
    kind: 'offline',
    model: 'counting',
    stream(request) {
      calls.push(request);
      const text =
        request.system === JUDGE_INSTRUCTION
          ? JSON.stringify({ pass: request.prompt.includes('LONG'), reason: 'judged' })
          : `answer ${request.prompt.slice(0, 80).replace(/\s+/g, ' ')}`;
      return Object.assign(
        (async function* () {
          yield text;
        })(),
        { final: Promise.resolve({ text, usage: { inputTokens: 12, outputTokens: 7 } }) },
      );
    },
  };
  const count = (marker: string) => calls.filter((call) => call.prompt.trimStart().startsWith(marker)).length;
  const judged = () => calls.filter((call) => call.system === JUDGE_INSTRUCTION).length;
  return { provider, count, judged };
}

const TOPICS = Array.from({ length: 20 }, (_, i) => `chủ đề ${i + 1}`);

describe('experiments', () => {
  let t: TestApp;
  const model = countingModel();
  let ann: Person;
  let bob: Person;

  beforeAll(async () => {
    t = await createTestApp(
      { freeStepAllowance: 100_000 },
      { resolveModel: () => ({ provider: model.provider, keySource: 'offline' }) },
    );
    ann = await person(t.app, 'Ann');
    bob = await person(t.app, 'Bob');
  });
  afterAll(() => t.close());

  /** The experiment once it has ended (completed or stopped), as its route answers it. */
  const ended = async (who: Person, experimentId: string) => {
    let last: ExperimentView | undefined;
    await vi.waitFor(
      async () => {
        last = ok(await who.client.get(`/api/experiments/${experimentId}`));
        expect(['completed', 'stopped']).toContain(last!.status);
      },
      { timeout: 60_000, interval: 50 },
    );
    return last!;
  };

  const threeStepFlow = async (who: Person, workspaceId?: string) => {
    const flow = ok(
      await who.client.post('/api/flows', {
        name: 'Blog',
        description: 'Posts',
        ...(workspaceId ? { workspaceId } : {}),
      }),
      201,
    );
    const steps = [];
    for (const [order, [name, systemPrompt, extra]] of [
      ['Ideas', 'STEP1 ideas about the topic.', { requiresUserInput: true }],
      ['Outline', 'STEP2 outline from [[step-1]].', {}],
      ['Post', 'STEP3 write a post from [[step-2]].', {}],
    ].entries())
      steps.push(
        ok(
          await who.client.post('/api/steps', {
            flowId: flow.id,
            name,
            order: order + 1,
            systemPrompt,
            ...(extra as object),
          }),
          201,
        ),
      );
    return { flowId: flow.id as string, steps: steps.map((s) => s.id as string) };
  };

  /** The flow's version now: its tag. */
  const flowVersion = async (who: Person, flowId: string) =>
    Number(String((await who.client.get(`/api/flows/${flowId}`)).headers.etag).replace(/\D/g, ''));

  const csvDataset = async (who: Person, flowId: string) => {
    const dataset = ok(await who.client.post('/api/datasets', { name: 'Chủ đề', flowId }), 201);
    const csv = ['Ideas,expected:Post', ...TOPICS.map((topic) => `${topic},answer ${topic}`)].join('\n');
    ok(await who.client.post(`/api/datasets/${dataset.id}/items`, csv, { 'content-type': 'text/csv' }), 201);
    return dataset.id as string;
  };

  it('runs a flow version over a CSV dataset; a later version reuses the unchanged steps with no model call', async () => {
    const { flowId, steps } = await threeStepFlow(ann);
    const datasetId = await csvDataset(ann, flowId);
    const v1 = await flowVersion(ann, flowId);
    const auto = Object.fromEntries(steps.map((id) => [id, 'auto']));

    const a = ok(
      await ann.client.post('/api/experiments', {
        flowId,
        flowVersion: v1,
        datasetId,
        review: auto,
        scorers: [
          { type: 'contains', text: 'STEP3' },
          { type: 'length', min: 1 },
        ],
        concurrency: 4,
      }),
      202,
    );
    expect(a).toMatchObject({ flowId, flowVersion: v1, datasetId, counts: { total: 20 } });
    const doneA = await ended(ann, a.id);
    expect(doneA).toMatchObject({ status: 'completed', counts: { completed: 20, failed: 0 } });
    expect([model.count('STEP1'), model.count('STEP2'), model.count('STEP3')]).toEqual([20, 20, 20]);

    // Step 3 edited: version 2. Experiment B against A runs only step 3.
    ok(
      await ann.client.put(`/api/steps/${steps[2]}`, {
        systemPrompt: 'STEP3 write a LONG post from [[step-2]].',
      }),
    );
    const v2 = await flowVersion(ann, flowId);
    const b = ok(
      await ann.client.post('/api/experiments', {
        flowId,
        flowVersion: v2,
        datasetId,
        baselineId: a.id,
        review: auto,
        scorers: [
          { type: 'contains', text: 'STEP3' },
          { type: 'length', min: 1 },
        ],
      }),
      202,
    );
    expect(b.reuseBefore).toBe(steps[2]);
    const doneB = await ended(ann, b.id);
    expect(doneB).toMatchObject({ status: 'completed', counts: { completed: 20 } });
    expect([model.count('STEP1'), model.count('STEP2'), model.count('STEP3')]).toEqual([20, 20, 40]);
    expect(doneB.runs.every((run: { reusedFrom: string | null }) => run.reusedFrom !== null)).toBe(true);

    // Compare: per item, step 3 changed; steps 1 and 2 the same (reused).
    const compared = ok(await ann.client.get(`/api/experiments/compare?ids=${a.id},${b.id}&limit=200`));
    expect(compared.experimentIds).toEqual([a.id, b.id]);
    const stepRows = (stepId: string) =>
      compared.rows.filter((row: { stepId: string | null }) => row.stepId === stepId);
    expect(stepRows(steps[2]!)).toHaveLength(20);
    for (const row of stepRows(steps[2]!)) expect(row.cells[1].flags).toContain('changed');
    for (const row of stepRows(steps[0]!)) expect(row.cells[1].flags).toEqual([]);
    const csv = await ann.client.get(`/api/experiments/compare?ids=${a.id},${b.id}&format=csv`);
    expect(csv.headers['content-type']).toContain('text/csv');

    // The flow's screen still opens a person's latest run of it, not one of the experiments' 40.
    const latest = await ann.client.get(`/api/flows/${flowId}/executions/latest`);
    expect(latest.statusCode === 204 || latest.body === 'null' || latest.body === '').toBe(true);

    // Listed for the flow, newest first; promoted, B is the flow's baseline.
    ok(await ann.client.post(`/api/experiments/${b.id}/promote`, {}));
    const listed = ok(await ann.client.get(`/api/experiments?flowId=${flowId}`));
    expect(listed.map((x: { id: string }) => x.id)).toEqual([b.id, a.id]);
    expect(listed[0].isBaseline).toBe(true);

    // Another person sees none of it.
    expect((await bob.client.get(`/api/experiments/${a.id}`)).statusCode).toBe(404);
    expect((await bob.client.get(`/api/experiments/compare?ids=${a.id}`)).statusCode).toBe(404);
    expect((await bob.client.post(`/api/experiments/${a.id}/stop`, {})).statusCode).toBe(404);
    expect((await bob.client.get(`/api/experiments?flowId=${flowId}`)).statusCode).toBe(404);
  });

  it('sends a human step of each run to the reviewers, and counts their approvals and edits as scores', {
    timeout: 120_000,
  }, async () => {
    const owner = await person(t.app, 'Owner');
    const reviewer = await person(t.app, 'Rita');
    const { id: workspaceId } = await newWorkspace(owner, 'Review team');
    await join(owner, workspaceId, reviewer, 'reviewer');
    const { flowId, steps } = await threeStepFlow(owner, workspaceId);
    ok(
      await owner.client.put(`/api/steps/${steps[2]}`, {
        review: { by: 'members', userIds: [reviewer.id] },
      }),
    );
    const datasetId = await csvDataset(owner, flowId);
    const experiment = ok(
      await owner.client.post('/api/experiments', {
        flowId,
        flowVersion: await flowVersion(owner, flowId),
        datasetId,
        review: { [steps[0]!]: 'auto', [steps[1]!]: 'auto', [steps[2]!]: 'human' },
        concurrency: 5,
      }),
      202,
    );

    // Every run waits for Rita: 20 reviews in her inbox, while none holds a place in flight.
    let inbox: Array<{ id: string; executionId: string }> = [];
    await vi.waitFor(
      async () => {
        inbox = ok(await reviewer.client.get('/api/reviews'));
        expect(inbox).toHaveLength(20);
        const waiting = ok(await owner.client.get(`/api/experiments/${experiment.id}`));
        expect(waiting).toMatchObject({ status: 'running', counts: { waiting: 20, running: 0 } });
      },
      { timeout: 60_000, interval: 50 },
    );

    // She edits five answers (a word changed) and approves all twenty.
    for (const [i, review] of inbox.entries()) {
      if (i < 5) {
        const shown = ok(await reviewer.client.get(`/api/executions/${review.executionId}`));
        const result = shown.results.find((r: { stepId: string }) => r.stepId === steps[2]);
        ok(
          await reviewer.client.put(`/api/step-results/${result.id}`, { result: `${result.result} edited` }),
        );
        const again = ok(await reviewer.client.get(`/api/executions/${review.executionId}`));
        const pending = again.reviews.find((r: { status: string }) => r.status === 'pending');
        ok(await reviewer.client.post(`/api/reviews/${pending.id}/approve`, {}));
      } else {
        ok(await reviewer.client.post(`/api/reviews/${review.id}/approve`, {}));
      }
    }
    const done = await ended(owner, experiment.id);
    expect(done).toMatchObject({ status: 'completed', counts: { completed: 20 } });

    const compared = ok(await owner.client.get(`/api/experiments/compare?ids=${experiment.id}&limit=200`));
    const postRows = (compared.rows as CompareRow[]).filter((row) => row.stepId === steps[2]);
    const scoreOf = (row: CompareRow, name: string) =>
      row.cells[0]!.scores.find((s) => s.name === name)?.value;
    expect(postRows.map((row) => scoreOf(row, 'approved'))).toEqual(Array(20).fill(1));
    expect(postRows.filter((row) => scoreOf(row, 'edited') === 1)).toHaveLength(5);
    expect(postRows.filter((row) => scoreOf(row, 'edit_distance') === 1)).toHaveLength(5);
    const all = compared.summaries.find((s: { stepId: string | null }) => s.stepId === steps[2]);
    expect(all.editRate).toBeCloseTo(0.25);
    expect(all.meanSecondsToApprove).not.toBeNull();
  });

  it('approves a judge step when its judge passes, else waits for the one who started it; scores again without the flow model', {
    timeout: 90_000,
  }, async () => {
    const { flowId, steps } = await threeStepFlow(ann);
    const dataset = ok(await ann.client.post('/api/datasets', { name: 'Ba chủ đề', flowId }), 201);
    ok(
      await ann.client.post(`/api/datasets/${dataset.id}/items`, {
        items: ['trà', 'cà phê', 'ca cao'].map((topic) => ({ inputs: { [steps[0]!]: topic } })),
      }),
      201,
    );
    const judge = { type: 'judge', name: 'dài', model: 'offline:offline', prompt: 'Is this long enough?' };
    const request = {
      flowId,
      flowVersion: await flowVersion(ann, flowId),
      datasetId: dataset.id,
      review: { [steps[0]!]: 'auto', [steps[1]!]: 'auto', [steps[2]!]: 'judge' },
      scorers: [judge, { type: 'contains', text: 'STEP3' }],
    };
    // The judge passes only what names LONG: here nothing, so each run waits for Ann.
    const experiment = ok(await ann.client.post('/api/experiments', request), 202);
    let view: ExperimentView | undefined;
    await vi.waitFor(
      async () => {
        view = ok(await ann.client.get(`/api/experiments/${experiment.id}`));
        expect(view!.counts.waiting, JSON.stringify(view!.counts)).toBe(3);
      },
      { timeout: 60_000, interval: 50 },
    );
    const judgedBefore = model.judged();
    expect(judgedBefore).toBeGreaterThanOrEqual(3);
    // Traced, a judge's call points at the run's record as it judged it: the execution and its event.
    const exporter = new node.InMemorySpanExporter();
    const tracing = new node.NodeTracerProvider({ spanProcessors: [new node.SimpleSpanProcessor(exporter)] });
    trace.setGlobalTracerProvider(tracing);
    for (const run of view!.runs) {
      const shown = ok(await ann.client.get(`/api/executions/${run.executionId}`));
      const post = shown.results.find((r: { stepId: string }) => r.stepId === steps[2]);
      ok(await ann.client.put(`/api/step-results/${post.id}`, { approved: true }));
    }
    const done = await ended(ann, experiment.id);
    expect(done.counts).toMatchObject({ completed: 3 });
    const judgeScores = async () =>
      (
        ok(await ann.client.get(`/api/experiments/compare?ids=${experiment.id}&limit=200`))
          .rows as CompareRow[]
      )
        .filter((row) => row.stepId === steps[2])
        .map((row) => row.cells[0]!.scores.find((score) => score.name === 'dài')?.value);
    expect(await judgeScores()).toEqual([0, 0, 0]);

    // Scored again: the judge is asked again, the flow's model is not.
    const flowCalls = [model.count('STEP1'), model.count('STEP2'), model.count('STEP3')];
    ok(await ann.client.post(`/api/experiments/${experiment.id}/score-again`, { scorerNames: ['dài'] }));
    expect(model.judged()).toBe(judgedBefore + 3);
    const judgeSpans = exporter
      .getFinishedSpans()
      .filter((span) => span.name.startsWith('chat ') && span.parentSpanContext === undefined);
    trace.disable();
    await tracing.shutdown();
    expect(judgeSpans).toHaveLength(3);
    const runs = new Map(view!.runs.map((run) => [run.executionId, run]));
    for (const span of judgeSpans) {
      expect(runs.has(span.attributes['workbench.execution.id'] as string)).toBe(true);
      expect(span.attributes['workbench.event.position']).toBeGreaterThan(0);
      expect(span.attributes['gen_ai.operation.name']).toBe('chat');
    }
    expect([model.count('STEP1'), model.count('STEP2'), model.count('STEP3')]).toEqual(flowCalls);
    expect(await judgeScores()).toEqual([0, 0, 0]);
    // Every judge call is counted to the experiment, apart from the flow's tokens.
    const compared = ok(await ann.client.get(`/api/experiments/compare?ids=${experiment.id}&limit=200`));
    const whole = compared.summaries.find((s: { stepId: string | null }) => s.stepId === null);
    expect(whole.judgeUsage).toEqual({ calls: 6, inputTokens: 72, outputTokens: 42 });
    expect(
      (await ann.client.post(`/api/experiments/${experiment.id}/score-again`, { scorerNames: ['nope'] }))
        .statusCode,
    ).toBe(404);
  });

  it('refuses what does not fit, with the reason', async () => {
    const { flowId, steps } = await threeStepFlow(ann);
    const other = await threeStepFlow(ann);
    const datasetId = await csvDataset(ann, flowId);
    const otherDataset = await csvDataset(ann, other.flowId);
    const version = await flowVersion(ann, flowId);
    const start = (body: Record<string, unknown>) =>
      ann.client.post('/api/experiments', { flowId, flowVersion: version, datasetId, ...body });
    const refused = async (body: Record<string, unknown>, status: number) => {
      const response = await start(body);
      expect(response.statusCode, response.body).toBe(status);
      return response.json().message as string;
    };
    expect(await refused({ review: { 'no-such-step': 'auto' } }, 400)).toContain('no-such-step');
    expect(await refused({ review: { [steps[2]!]: 'judge' } }, 400)).toContain('judge');
    expect(await refused({ datasetId: otherDataset }, 400)).toContain('dataset');
    expect(await refused({ flowVersion: 999 }, 404)).toContain('999');
    expect(await refused({ concurrency: 0 }, 400)).toContain('concurrency');
    expect(await refused({ scorers: [{ type: 'regex', pattern: '(a)\\1' }] }, 400)).toContain('regex');
    expect(await refused({ datasetId: '00000000-0000-4000-8000-000000000000' }, 404)).toBeTruthy();
    expect(
      (await bob.client.post('/api/experiments', { flowId, flowVersion: version, datasetId })).statusCode,
    ).toBe(404);

    // The same request sent twice with its Idempotency-Key starts one experiment.
    const listed = async () => ok(await ann.client.get(`/api/experiments?flowId=${flowId}`)).length as number;
    const before = await listed();
    const keyed = { 'idempotency-key': 'start-once' };
    const body = { flowId, flowVersion: version, datasetId, review: { [steps[0]!]: 'human' } };
    const [once, again] = await Promise.all([
      ann.client.post('/api/experiments', body, keyed),
      ann.client.post('/api/experiments', body, keyed),
    ]);
    const answered = [once, again].filter((r) => r.statusCode === 202).map((r) => r.json().id);
    expect(answered.length).toBeGreaterThanOrEqual(1);
    expect(new Set(answered).size).toBe(1);
    expect(await listed()).toBe(before + 1);
    ok(await ann.client.post(`/api/experiments/${answered[0]}/stop`, {}));

    // A baseline must have ended; an experiment is promoted once completed.
    const running = ok(await start({ review: Object.fromEntries(steps.map((id) => [id, 'human'])) }), 202);
    expect(await refused({ baselineId: running.id }, 409)).toContain('baseline');
    expect((await ann.client.post(`/api/experiments/${running.id}/promote`, {})).statusCode).toBe(409);
    ok(await ann.client.post(`/api/experiments/${running.id}/stop`, {}));
    const ids = Array.from({ length: 6 }, () => running.id).join(',');
    expect((await ann.client.get(`/api/experiments/compare?ids=${ids}`)).statusCode).toBe(400);
    expect((await ann.client.get('/api/experiments/compare?ids=nope')).statusCode).toBe(400);
  });

  it('rebuild reproduces the experiments read model row for row, and the check finds no difference', {
    timeout: 120_000,
  }, async () => {
    const rows = async () => t.db.sql.unsafe('SELECT * FROM experiments ORDER BY id');
    // Every experiment ended first: a stopped one's runs in flight still finish after the stop's answer.
    await vi.waitFor(
      async () => {
        const open = await t.db.sql`
          SELECT id FROM experiments WHERE completed_at IS NULL AND runs_finished < runs_total
            AND NOT (stopped_at IS NOT NULL AND NOT EXISTS (
              SELECT 1 FROM events WHERE stream_id = 'experiment-' || experiments.id
                AND event_type = 'ExperimentRunStarted'
                AND data->>'runKey' NOT IN (
                  SELECT data->>'runKey' FROM events f WHERE f.stream_id = 'experiment-' || experiments.id
                    AND f.event_type = 'ExperimentRunFinished')))`;
        expect(open).toEqual([]);
      },
      { timeout: 60_000, interval: 50 },
    );
    const inline = await rows();
    expect(inline.length).toBeGreaterThan(4);
    // Batches that split an experiment's stream, and one batch for the whole log.
    for (const batchSize of [50, 100_000]) {
      await rebuildProjections(t.db.sql, t.store, batchSize);
      expect(await rows(), `batch size ${batchSize}`).toEqual(inline);
    }
    const one = connect(t.db.url, { max: 1, appSecret: TEST_APP_SECRET });
    try {
      expect((await checkProjections(one)).differences).toEqual([]);
    } finally {
      await one.end();
    }
  });
});
