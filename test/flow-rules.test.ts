import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOW_STATUSES, MULTIPLE_CHOICE_NEEDS_CHOICE } from '../src/domain/flow';
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
    expect(weird.json().message).toBe(`status: must be one of ${FLOW_STATUSES.join(', ')}`);
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
});
