import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_LIMIT_REFUSED } from '../src/api/http/pages';
import { WHOLE_NUMBER_MESSAGE } from '../src/api/http/request-schemas';
import { decider as flowDecider } from '../src/domain/flow/decider';
import { flowStreamId } from '../src/domain/flow/events';
import { toFlowEvent } from '../src/projections/project-flow-events';
import { rebuildProjections } from '../src/projections/rebuild';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

/** The flow's row and its steps as the read models hold them, times as ISO text. */
async function readModel(t: TestApp, flowId: string) {
  const [flow] = await t.db.sql<
    (Record<string, unknown> & { createdAt: Date; updatedAt: Date; version: number })[]
  >`
    SELECT id, user_id, name, description, status, is_template, created_at, updated_at, version
    FROM flows WHERE id = ${flowId}`;
  const steps = await t.db.sql<
    (Record<string, unknown> & { id: string; inputSources: string[]; createdAt: Date })[]
  >`
    SELECT id, "order", name, system_prompt, output_mode, input_sources, choices, loop_target_step_id,
           max_loop_iterations, current_loop_iteration, requires_user_input, created_at
    FROM steps WHERE flow_id = ${flowId} ORDER BY "order", created_at, id`;
  return {
    flow: flow && {
      ...flow,
      createdAt: flow.createdAt.toISOString(),
      updatedAt: flow.updatedAt.toISOString(),
    },
    steps: steps.map((step) => ({ ...step, createdAt: step.createdAt.toISOString() })),
  };
}

/** The flow as the fold of its stream up to `position` has it, in the read models' shape. */
async function folded(t: TestApp, flowId: string, position?: number) {
  const { events } = await t.store.readStream(flowStreamId(flowId), position ? { limit: position } : {});
  const state = events.map(toFlowEvent).reduce(flowDecider.evolve, flowDecider.initialState());
  if (state.deleted) return { flow: undefined, steps: [] };
  return {
    flow: {
      id: state.flowId,
      userId: state.userId,
      ...state.details,
      createdAt: state.createdAt,
      updatedAt: state.updatedAt,
      version: events.at(-1)!.streamPosition,
    },
    steps: state.steps.map((step) => ({ ...step })),
  };
}

describe('flows with a history', () => {
  let t: TestApp;
  let owner: Client;
  let stranger: Client;

  beforeAll(async () => {
    t = await createTestApp();
    owner = as(t.app, (await signUp(t.app, 'Lan')).cookie);
    stranger = as(t.app, (await signUp(t.app, 'Mai')).cookie);
  });
  afterAll(() => t.close());

  it('records every edit as a version, and the fold of the stream equals the read model at every position', async () => {
    const { flow, steps } = await createFlow(owner, 'Blog', [
      { name: 'Ideas', systemPrompt: 'List five ideas' },
      { name: 'Outline', systemPrompt: 'Outline [[step-1]]' },
      { name: 'Draft', systemPrompt: 'Draft it' },
    ]);
    // Each step sees its read model as the fold of the stream right after the command.
    const checkpoints: { position: number; model: Awaited<ReturnType<typeof readModel>> }[] = [];
    const record = async () => {
      const model = await readModel(t, flow.id);
      checkpoints.push({ position: Number(model.flow!.version), model });
    };
    await record();
    expect((await owner.put(`/api/flows/${flow.id}`, { name: 'Blog 2', status: 'active' })).statusCode).toBe(
      200,
    );
    await record();
    await owner.put(`/api/steps/${steps[1].id}`, {
      systemPrompt: 'Outline [[step-1]] in three parts',
      inputSources: [steps[0].id],
    });
    await record();
    await owner.put(`/api/steps/${steps[2].id}`, { order: 1 });
    await record();
    expect((await owner.delete(`/api/steps/${steps[0].id}`)).statusCode).toBe(204);
    await record();

    for (const { position, model } of checkpoints) {
      expect(await folded(t, flow.id, position)).toEqual(model);
    }
    // Removing a step drops it from later steps' inputs, in the stream as in the table.
    expect(checkpoints.at(-1)!.model.steps.find((s) => s.id === steps[1].id)!.inputSources).toEqual([]);

    const versions = (await owner.get(`/api/flows/${flow.id}/versions`)).json();
    expect(versions.map((v: { summary: string }) => v.summary)).toEqual([
      'Tạo thủ công, gồm 0 step',
      'Thêm step "Ideas"',
      'Thêm step "Outline"',
      'Thêm step "Draft"',
      'Đổi tên thành "Blog 2"; Đổi status: draft → active',
      'Sửa step "Outline": prompt, input sources',
      'Sửa step "Draft": thứ tự',
      'Xóa step "Ideas"',
    ]);
    // Saving name and status at once is one event, so one version numbered next: the numbers skip none.
    expect(versions.map((v: { version: number }) => v.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(versions[0]).toMatchObject({ actor: { name: 'Lan' }, executions: [] });
  });

  it('answers a flow as it stood at a version, and restores it as a new version that can be edited again', async () => {
    const { flow, steps } = await createFlow(owner, 'Mail', [
      { name: 'Write', systemPrompt: 'Write a mail' },
    ]);
    await owner.put(`/api/steps/${steps[0].id}`, { systemPrompt: 'Write a short mail' });
    await owner.delete(`/api/steps/${steps[0].id}`);
    const past = (await owner.get(`/api/flows/${flow.id}/versions/2`)).json();
    expect(past.version).toBe(2);
    expect(past.steps.map((s: { systemPrompt: string }) => s.systemPrompt)).toEqual(['Write a mail']);

    const restored = await owner.post(`/api/flows/${flow.id}/restore/2`, {});
    expect(restored.statusCode).toBe(200);
    expect(restored.json().version).toBe(5);
    const now = (await owner.get(`/api/flows/${flow.id}/steps`)).json();
    expect(now.map((s: { id: string; systemPrompt: string }) => [s.id, s.systemPrompt])).toEqual([
      [steps[0].id, 'Write a mail'],
    ]);
    // Nothing was rewritten: the versions before the restore still answer as they stood.
    expect((await owner.get(`/api/flows/${flow.id}/versions/4`)).json().steps).toEqual([]);
    expect((await owner.get(`/api/flows/${flow.id}/versions`)).json().at(-1).summary).toBe(
      'Khôi phục Version 2',
    );

    // The restored step is the same step: it can be edited again.
    const edited = await owner.put(`/api/steps/${steps[0].id}`, { systemPrompt: 'Write a long mail' });
    expect(edited.statusCode).toBe(200);
    expect(await folded(t, flow.id)).toEqual(await readModel(t, flow.id));

    // The current version, a version to come and a malformed one are refused.
    expect((await owner.post(`/api/flows/${flow.id}/restore/6`, {})).statusCode).toBe(400);
    expect((await owner.post(`/api/flows/${flow.id}/restore/7`, {})).statusCode).toBe(404);
    expect((await owner.get(`/api/flows/${flow.id}/versions/99`)).statusCode).toBe(404);
    expect((await owner.get(`/api/flows/${flow.id}/versions/0`)).statusCode).toBe(400);
    expect((await owner.get(`/api/flows/${flow.id}/versions/abc`)).statusCode).toBe(400);
  });

  it('reads a version number in plain digits only: 0x2, 2e0, " 2" and "2 " restore nothing', async () => {
    const { flow } = await createFlow(owner, 'Digits', [{ name: 'Write', systemPrompt: 'Write a mail' }]);
    await owner.put(`/api/flows/${flow.id}`, { name: 'Digits, renamed' });
    const before = (await owner.get(`/api/flows/${flow.id}/versions`)).json().length;
    for (const version of ['0x2', '2e0', '%202', '2%20', '2.0', '+2', '0b10']) {
      for (const [refused, says] of [
        [await owner.post(`/api/flows/${flow.id}/restore/${version}`, {}), WHOLE_NUMBER_MESSAGE],
        [await owner.get(`/api/flows/${flow.id}/versions/${version}`), WHOLE_NUMBER_MESSAGE],
        [await owner.get(`/api/flows/${flow.id}/versions?limit=${version}`), PAGE_LIMIT_REFUSED],
      ] as const) {
        expect(refused.statusCode, version).toBe(400);
        expect(refused.json()).toMatchObject({
          code: 'invalid_input',
          message: expect.stringContaining(says),
        });
      }
    }
    expect((await owner.get(`/api/flows/${flow.id}/versions`)).json()).toHaveLength(before);
    expect((await owner.get(`/api/flows/${flow.id}`)).json().name).toBe('Digits, renamed');
    expect((await owner.get(`/api/flows/${flow.id}/versions/02`)).json().version).toBe(2);
  });

  it('records which path made a flow from Workflow JSON', async () => {
    const workflowJSON = {
      name: 'Made',
      steps: [{ name: 'One', order: 1, systemPrompt: 'Go', outputMode: 'single' }],
    };
    const summaries = [];
    for (const origin of [undefined, 'ai-creator', 'flow-creator', 'template']) {
      const flow = (await owner.post('/api/ai/create-from-json', { workflowJSON, origin })).json();
      summaries.push((await owner.get(`/api/flows/${flow.id}/versions`)).json()[0].summary);
    }
    expect(summaries).toEqual([
      'Tạo từ file import, gồm 1 step',
      'Tạo bằng AI Creator, gồm 1 step',
      'Tạo bằng AI Flow Creator, gồm 1 step',
      'Tạo từ một template, gồm 1 step',
    ]);
    const refused = await owner.post('/api/ai/create-from-json', { workflowJSON, origin: 'recommendation' });
    expect(refused.statusCode).toBe(400);
  });

  it('shows versions only to the owner: another user, and a deleted flow, get 404', async () => {
    const { flow } = await createFlow(owner, 'Private', [{ name: 'S', systemPrompt: 'secret prompt' }]);
    for (const call of [
      stranger.get(`/api/flows/${flow.id}/versions`),
      stranger.get(`/api/flows/${flow.id}/versions/1`),
      stranger.post(`/api/flows/${flow.id}/restore/1`, {}),
    ]) {
      const response = await call;
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('secret prompt');
    }
    expect((await owner.delete(`/api/flows/${flow.id}`)).statusCode).toBe(204);
    expect((await owner.get(`/api/flows/${flow.id}/versions`)).statusCode).toBe(404);
    expect((await owner.get(`/api/flows/${flow.id}/versions/1`)).statusCode).toBe(404);
    expect((await owner.post(`/api/flows/${flow.id}/restore/1`, {})).statusCode).toBe(404);
  });

  it('pins each execution to the version it started from; one started before an edit still shows the prompts it ran', async () => {
    const { flow, steps } = await createFlow(owner, 'Pinned', [
      { name: 'Ask', systemPrompt: 'First prompt' },
    ]);
    const execution = (await owner.post(`/api/flows/${flow.id}/execute`)).json();
    expect(execution.flowVersion).toBe(2);
    await owner.put(`/api/steps/${steps[0].id}`, { systemPrompt: 'Second prompt' });

    const view = (await owner.get(`/api/executions/${execution.id}`)).json();
    expect(view.flowVersion).toBe(2);
    expect(view.steps[0].systemPrompt).toBe('First prompt');
    const state = (await owner.get(`/api/executions/${execution.id}/state?at=1`)).json();
    expect(state.flowVersion).toBe(2);

    // A run syncs the execution to the flow's new version, and the sync records it.
    await owner.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`, { userInput: '' });
    const { items: events } = (await owner.get(`/api/executions/${execution.id}/events`)).json();
    expect(events.find((e: { type: string }) => e.type === 'StepsSynced').data.flowVersion).toBe(3);
    expect((await owner.get(`/api/executions/${execution.id}`)).json().flowVersion).toBe(2);

    const second = (await owner.post(`/api/flows/${flow.id}/execute`)).json();
    const versions = (await owner.get(`/api/flows/${flow.id}/versions`)).json();
    expect(versions.map((v: { executions: { id: string }[] }) => v.executions.map((e) => e.id))).toEqual([
      [],
      [execution.id],
      [second.id],
    ]);
  });

  it('rebuild gives flows and steps as the commands wrote them', async () => {
    const { flow, steps } = await createFlow(owner, 'Rebuilt', [
      { name: 'One', systemPrompt: 'A' },
      { name: 'Two', systemPrompt: 'B [[step-1]]' },
    ]);
    await owner.put(`/api/steps/${steps[1].id}`, { inputSources: [steps[0].id] });
    await owner.post(`/api/flows/${flow.id}/restore/2`, {});
    const gone = await createFlow(owner, 'Gone', [{ name: 'X', systemPrompt: 'x' }]);
    await owner.delete(`/api/flows/${gone.flow.id}`);
    const all = async () => ({
      flows: await t.db.sql`SELECT * FROM flows ORDER BY id`,
      steps: await t.db.sql`SELECT * FROM steps ORDER BY id`,
    });
    const inline = await all();
    await rebuildProjections(t.db.sql, t.store, 3);
    expect(await all()).toEqual(inline);
  });
});
