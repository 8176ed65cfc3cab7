import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOW_STATUSES, MULTIPLE_CHOICE_NEEDS_CHOICE } from '../src/domain/flow';
import { takenAsInputBy } from '../src/domain/flow/decider';
import { as, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

/** The server refuses what the screens refuse: one schema in the domain serves both. */
describe('flow and step rules the screens and the server share', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('takes only the statuses the screens offer', async () => {
    const client = as(t.app, (await signUp(t.app, 'Lan')).cookie);
    const weird = await client.post('/api/flows', { name: 'F', description: 'D', status: 'weird' });
    expect(weird.statusCode).toBe(400);
    expect(weird.json().message).toBe(`status: phải là một trong: ${FLOW_STATUSES.join(', ')}`);
    const { flow } = await createFlow(client, 'Kept', []);
    expect((await client.put(`/api/flows/${flow.id}`, { status: 'weird' })).statusCode).toBe(400);
    for (const status of FLOW_STATUSES) {
      expect((await client.put(`/api/flows/${flow.id}`, { status })).json().status).toBe(status);
    }
  });

  it('refuses a multiple_choice step without a choice, added or edited', async () => {
    const client = as(t.app, (await signUp(t.app, 'Minh')).cookie);
    const {
      flow,
      steps: [step],
    } = await createFlow(client, 'Choices', [{ name: 'Pick', systemPrompt: 'Pick one' }]);
    const added = await client.post('/api/steps', {
      flowId: flow.id,
      order: 2,
      name: 'Choose',
      outputMode: 'multiple_choice',
    });
    expect(added.statusCode).toBe(400);
    expect(added.json().message).toBe(MULTIPLE_CHOICE_NEEDS_CHOICE);
    const edited = await client.put(`/api/steps/${step!.id}`, {
      outputMode: 'multiple_choice',
      choices: ['', ' '],
    });
    expect(edited.statusCode).toBe(400);
    const withChoices = await client.put(`/api/steps/${step!.id}`, {
      outputMode: 'multiple_choice',
      choices: ['Yes', 'No'],
    });
    expect(withChoices.statusCode).toBe(200);
    expect(withChoices.json().choices).toEqual(['Yes', 'No']);
  });

  it('keeps an input source earlier than the step taking it: moving it past that step is refused', async () => {
    const client = as(t.app, (await signUp(t.app, 'Ngọc')).cookie);
    const { flow, steps } = await createFlow(client, 'Chain', [
      { name: 'Ideas', systemPrompt: 'Ideas' },
      { name: 'Draft', systemPrompt: 'Draft from [[step-1]]' },
    ]);
    const [ideas, draft] = steps as [{ id: string }, { id: string }];
    expect((await client.put(`/api/steps/${draft.id}`, { inputSources: [ideas.id] })).statusCode).toBe(200);
    const moved = await client.put(`/api/steps/${ideas.id}`, { order: 5 });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toMatchObject({ code: 'rule_violated', message: takenAsInputBy('Draft') });
    // What is saved still exports to Workflow JSON that imports as an equal flow.
    const { workflow } = (await client.get(`/api/flows/${flow.id}/export`)).json();
    expect(workflow.steps.map((s: { inputSources: string[] }) => s.inputSources)).toEqual([[], ['step-1']]);
    expect((await client.post('/api/ai/create-from-json', { workflowJSON: workflow })).statusCode).toBe(201);
  });
});

describe('a step edit costs the step, not the flow', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('rewrites only the step edited (its row alone gets a new version), however large the flow', async () => {
    const client = as(t.app, (await signUp(t.app, 'Lan')).cookie);
    const { flow, steps } = await createFlow(
      client,
      'Large',
      Array.from({ length: 12 }, (_, i) => ({ name: `Step ${i + 1}`, systemPrompt: `${i}`.repeat(50_000) })),
    );
    const versions = async () =>
      new Map(
        (
          await t.db.sql<{ id: string; rowVersion: string }[]>`
            SELECT id, xmin::text AS row_version FROM steps WHERE flow_id = ${flow.id}`
        ).map((row) => [row.id, row.rowVersion]),
      );
    const before = await versions();
    expect(before.size).toBe(12);
    expect((await client.put(`/api/steps/${steps[4]!.id}`, { name: 'Renamed' })).statusCode).toBe(200);
    const after = await versions();
    const rewritten = [...after].filter(([id, version]) => before.get(id) !== version).map(([id]) => id);
    expect(rewritten).toEqual([steps[4]!.id]);

    expect((await client.delete(`/api/steps/${steps[7]!.id}`)).statusCode).toBe(204);
    const removed = await versions();
    expect(removed.size).toBe(11);
    expect([...removed].filter(([id, version]) => after.get(id) !== version)).toEqual([]);
  });

  it('refuses a step that would take the flow past its size (413), keeping what is saved', async () => {
    const client = as(t.app, (await signUp(t.app, 'Minh')).cookie);
    const { flow } = await createFlow(
      client,
      'Full',
      Array.from({ length: 19 }, (_, i) => ({ name: `S${i + 1}`, systemPrompt: 'p'.repeat(100_000) })),
    );
    const past = await client.post('/api/steps', {
      flowId: flow.id,
      order: 20,
      name: 'One more',
      systemPrompt: 'q'.repeat(100_000),
    });
    expect(past.statusCode).toBe(413);
    expect(past.json().message).toMatch(/một flow dài tối đa 2,000,000 ký tự/);
    expect((await client.get(`/api/flows/${flow.id}/steps`)).json()).toHaveLength(19);
  });
});
