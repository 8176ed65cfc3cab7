import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFlow, createTestApp, OFFLINE_MODEL, type TestApp } from './support/test-app';
import { ok, type Person, person } from './support/workspace-people';

/**
 * A record's id written in capitals names the record, on every route: the database reads a uuid in either
 * case, but a stream's id is text, so an id is taken in lower case where the request is read (one rule,
 * `requestedId`), never left to reach a stream as `execution-<ID>`, which is no stream at all.
 */
describe('ids in capitals', () => {
  let t: TestApp;
  let ann: Person;

  beforeAll(async () => {
    t = await createTestApp({}, OFFLINE_MODEL);
    ann = await person(t.app, 'Ann');
  });
  afterAll(() => t.close());

  it('run, read and change the records they name, as in lower case', async () => {
    const upper = (id: string) => id.toUpperCase();
    const { flow, steps } = await createFlow(ann.client, 'Blog', [
      { name: 'Ideas', systemPrompt: 'List three ideas.' },
      { name: 'Draft', systemPrompt: 'Write the first.' },
    ]);
    const [ideas, draft] = steps as { id: string }[];
    const changed = ok(
      await ann.client.put(`/api/steps/${upper(draft!.id)}`, { inputSources: [upper(ideas!.id)] }),
    );
    expect(changed.inputSources).toEqual([ideas!.id]);
    const execution = ok(await ann.client.post(`/api/flows/${upper(flow.id)}/execute`, {}), 201);
    const ran = ok(
      await ann.client.post(`/api/executions/${upper(execution.id)}/steps/${upper(ideas!.id)}/execute`, {}),
    );
    expect(ran.results).toHaveLength(1);
    const read = ok(await ann.client.get(`/api/executions/${upper(execution.id)}`));
    expect(read).toMatchObject({ id: execution.id, flowId: flow.id });
    const history = ok(await ann.client.get(`/api/flows/${upper(flow.id)}/executions`));
    expect(JSON.stringify(history)).toContain(execution.id);
    const events = ok(await ann.client.get(`/api/executions/${upper(execution.id)}/events`));
    expect(JSON.stringify(events)).toContain('StepRunSucceeded');
  });
});
