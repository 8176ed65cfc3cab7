import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decider } from '../src/domain/execution/decider';
import { toExecutionEvent } from '../src/projections/project-execution-events';
import { ReadModelBatch } from '../src/projections/read-model-batch';
import { READ_MODEL_TABLES, rebuildProjections } from '../src/projections/rebuild';
import { as, type Client, createTestApp, signUp, type TestApp } from './support/test-app';

async function snapshot(t: TestApp) {
  const tables: Record<string, unknown[]> = {};
  // flows and steps are rebuilt from their streams too, written over rather than emptied first.
  for (const table of [...READ_MODEL_TABLES, 'flows', 'steps']) {
    tables[table] = await t.db.sql.unsafe(`SELECT * FROM ${table} ORDER BY ${table}::text`);
  }
  return tables;
}

describe('projections', () => {
  let t: TestApp;
  let client: Client;
  const executionIds: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    const account = await signUp(t.app);
    client = as(t.app, account.cookie);
    for (const name of ['One', 'Two']) {
      const flow = (await client.post('/api/flows', { name, description: 'rebuild me' })).json();
      const steps = [];
      for (const order of [1, 2, 3]) {
        const step = await client.post('/api/steps', {
          flowId: flow.id,
          name: `S${order}`,
          order,
          systemPrompt: order === 1 ? 'Start' : `Continue from [[step-${order - 1}]]`,
        });
        steps.push(step.json());
      }
      const execution = (await client.post(`/api/flows/${flow.id}/execute`)).json();
      executionIds.push(execution.id);
      for (const step of steps) {
        const { results } = (
          await client.post(`/api/executions/${execution.id}/steps/${step.id}/execute`)
        ).json();
        await client.put(`/api/step-results/${results[0].id}`, { approved: true });
      }
      const rerun = (
        await client.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`)
      ).json();
      await client.put(`/api/step-results/${rerun.results[0].id}`, { result: 'edited', label: 'Mine' });
      await client.delete(`/api/step-results/${rerun.results[0].id}`);
      await client.post(`/api/executions/${execution.id}/stop`);
      await client.post(`/api/executions/${execution.id}/reset`);
      if (name !== 'One') continue;
      // A dataset of the flow: made, filled (JSON, and the run captured), an item archived, renamed.
      const dataset = (await client.post('/api/datasets', { name: 'Cases', flowId: flow.id })).json();
      const { itemIds } = (
        await client.post(`/api/datasets/${dataset.id}/items`, {
          items: [{ inputs: { [steps[0].id]: 'tea' }, tags: ['a'] }, { inputs: { x: 'y' } }],
        })
      ).json();
      await client.post(`/api/datasets/${dataset.id}/items/from-execution`, { executionId: execution.id });
      await client.post(`/api/datasets/${dataset.id}/items/${itemIds[1]}/archive`);
      await t.app.inject({
        method: 'PATCH',
        url: `/api/datasets/${dataset.id}`,
        headers: { cookie: account.cookie },
        payload: { name: 'Renamed cases' },
      });
    }
    // A workspace whose members came and went: created, invited, joined, role changed, removed.
    const workspace = (await client.post('/api/workspaces', { name: 'Rebuilt team' })).json();
    for (const [name, role] of [
      ['Joiner', 'editor'],
      ['Leaver', 'auditor'],
    ] as const) {
      const member = await signUp(t.app, name);
      const { acceptUrl } = (
        await client.post(`/api/workspaces/${workspace.id}/invitations`, { email: member.email, role })
      ).json();
      const token = acceptUrl.split('/').at(-1);
      await as(t.app, member.cookie).post(`/api/invitations/${token}/accept`);
      if (name === 'Joiner')
        await client.put(`/api/workspaces/${workspace.id}/members/${member.user.id}`, { role: 'owner' });
      else await client.delete(`/api/workspaces/${workspace.id}/members/${member.user.id}`);
    }
    await client.post(`/api/workspaces/${workspace.id}/invitations`, {
      email: 'open@example.com',
      role: 'reviewer',
    });
    // A step its workspace's members review: one review approved, one rejected.
    const reviewed = (
      await client.post('/api/flows', {
        name: 'Reviewed',
        description: 'rebuild me',
        workspaceId: workspace.id,
      })
    ).json();
    const step = (
      await client.post('/api/steps', {
        flowId: reviewed.id,
        name: 'R1',
        order: 1,
        systemPrompt: 'Start',
        // The owners review it, and the runner (an owner) may approve their own step: another owner could too.
        review: { by: 'role', role: 'owner', selfApproval: true },
      })
    ).json();
    for (const decision of ['approve', 'reject'] as const) {
      const execution = (await client.post(`/api/flows/${reviewed.id}/execute`)).json();
      executionIds.push(execution.id);
      const run = (await client.post(`/api/executions/${execution.id}/steps/${step.id}/execute`)).json();
      const body = decision === 'approve' ? { comment: 'Fine' } : { reason: 'Not yet' };
      const decided = await client.post(`/api/reviews/${run.execution.reviews[0].id}/${decision}`, body);
      expect(decided.statusCode, decided.body).toBe(200);
    }
  });
  afterAll(() => t.close());

  it('rebuild reproduces the inline read models row for row', async () => {
    const inline = await snapshot(t);
    expect(inline.executions).toHaveLength(4);
    expect(inline.step_reviews).toHaveLength(2);
    expect(inline.step_results!.length).toBeGreaterThan(4);
    expect(inline.workspaces).toHaveLength(1);
    expect(inline.workspace_members).toHaveLength(2);
    expect(inline.workspace_invitations).toHaveLength(3);
    expect(inline.datasets).toHaveLength(1);
    expect(inline.dataset_items).toHaveLength(3);
    const replayed = await rebuildProjections(t.db.sql, t.store, 7);
    expect(replayed).toBeGreaterThan(20);
    expect(await snapshot(t)).toEqual(inline);
  });

  it('rebuild reproduces them whatever the batch size, with streams split across batches', async () => {
    const inline = await snapshot(t);
    // Size 1 splits every stream at every event (each change lands on a row of an earlier batch); the
    // others cut streams in different places and fold runs of events in memory.
    for (const batchSize of [1, 2, 3, 5, 1000]) {
      await rebuildProjections(t.db.sql, t.store, batchSize);
      expect(await snapshot(t), `batch size ${batchSize}`).toEqual(inline);
    }
  });

  it('rebuild waits for events committed behind a transaction still running, and replays them too', async () => {
    // A transaction with an id stays open on its own connection; a command commits after it began.
    const holder = postgres(t.db.url, { max: 1, onnotice: () => {} });
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let began = () => {};
    const open = new Promise<void>((resolve) => {
      began = resolve;
    });
    const holding = holder.begin(async (tx) => {
      await tx`SELECT pg_current_xact_id()`;
      began();
      await released;
    });
    try {
      await open;
      await client.post(`/api/executions/${executionIds[0]}/stop`);
      const inline = await snapshot(t);
      // The log as the rebuild reads it, counting the pages that find events held back and none to read.
      let waits = 0;
      let waited = () => {};
      const waitedTwice = new Promise<void>((resolve) => {
        waited = resolve;
      });
      const log = {
        replayFeed: async (read: Parameters<typeof t.store.replayFeed>[0]) => {
          const page = await t.store.replayFeed(read);
          if (page.heldBack && page.events.length === 0 && ++waits === 2) waited();
          return page;
        },
      };
      const rebuilt = rebuildProjections(t.db.sql, log, 1000);
      let done = false;
      void rebuilt.then(() => {
        done = true;
      });
      // It reached the held-back events and asked again rather than ending there.
      await waitedTwice;
      expect(done).toBe(false);
      release();
      await rebuilt;
      expect(await snapshot(t)).toEqual(inline);
    } finally {
      release();
      await holding;
      await holder.end();
    }
  });

  it("a rebuild batch's execution row replaces an older row, and never a row at its position or later", async () => {
    const id = executionIds[0]!;
    const rowOf = async () => (await t.db.sql`SELECT * FROM executions WHERE id = ${id}`)[0]!;
    const stored = await rowOf();
    // As the rebuild writes a batch: COPY, and when COPY is refused, the statements instead.
    const writeBatch = async (row: Record<string, unknown>) => {
      const batch = new ReadModelBatch();
      batch.add([{ type: 'execution', row: row as { id: string; position: number } }]);
      try {
        await t.db.sql.begin((tx) => batch.copy(tx));
      } catch {
        await t.db.sql.begin((tx) => batch.write(tx));
      }
    };
    try {
      for (const position of [stored.position - 1, stored.position]) {
        await writeBatch({ ...stored, status: 'failed', position });
        expect(await rowOf(), `position ${position}`).toEqual(stored);
      }
      await writeBatch({ ...stored, status: 'failed', position: stored.position + 1 });
      expect(await rowOf()).toEqual({ ...stored, status: 'failed', position: stored.position + 1 });
    } finally {
      await rebuildProjections(t.db.sql, t.store);
    }
  });

  it('applying the same events twice changes nothing', async () => {
    const before = await snapshot(t);
    const { projectExecutionEvents } = await import('../src/projections/project-execution-events');
    for (const id of executionIds) {
      const { events } = await t.store.readStream(`execution-${id}`);
      await t.db.sql.begin((tx) => projectExecutionEvents(tx, events));
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it('replaying a stream with evolve gives the state the read model shows', async () => {
    for (const id of executionIds) {
      const { events, version } = await t.store.readStream(`execution-${id}`);
      const state = events.map(toExecutionEvent).reduce(decider.evolve, decider.initialState());
      const [row] = await t.db.sql`SELECT * FROM executions WHERE id = ${id}`;
      expect(row).toMatchObject({
        status: state.status,
        currentStep: state.currentStep,
        executionCache: state.executionCache,
        executionQueue: state.executionQueue,
        runs: state.runs,
        reviews: state.reviews,
        position: version,
      });
      const results = await t.db
        .sql`SELECT id, result, approved, label FROM step_results WHERE execution_id = ${id}`;
      expect(new Set(results.map((r) => r.id))).toEqual(new Set(state.results.map((r) => r.id)));
      for (const r of state.results) {
        expect(results.find((row) => row.id === r.id)).toMatchObject({
          result: r.result,
          approved: r.approved,
          label: r.label,
        });
      }
    }
  });
});
