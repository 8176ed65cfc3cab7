import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseLine } from './support/database-line';
import { lineTo } from './support/database-line';
import { gatedModel } from './support/gated-model';
import {
  type AnotherInstance,
  anotherInstance,
  as,
  createFlow,
  createTestApp,
  signUp,
  type TestApp,
} from './support/test-app';

/**
 * PostgreSQL restarting drops every connection, and with them the locks that tell the instances apart from
 * dead ones. Each instance takes its lock back within seconds; a peer sweeping meanwhile must not take it for
 * dead and fail its runs, while the runs of an instance that truly died are still failed.
 */
describe('a database restart under running model calls on two instances', () => {
  const model = gatedModel();
  const resolveModel = () => ({ provider: model.provider, keySource: 'default' as const });
  let peer: TestApp;
  const lines: DatabaseLine[] = [];
  const instances: AnotherInstance[] = [];

  beforeAll(async () => {
    peer = await createTestApp({ freeStepAllowance: 1_000 }, { resolveModel });
    for (let i = 0; i < 2; i++) {
      const { line, url } = await lineTo(peer.db.url);
      lines.push(line);
      instances.push(await anotherInstance(url, { freeStepAllowance: 1_000 }, { resolveModel }));
    }
  });
  afterAll(async () => {
    model.release();
    for (const line of lines) await line.open();
    for (const instance of instances) await instance.close();
    for (const line of lines) await line.cut();
    await peer?.close();
  });

  it('keeps both instances’ runs, which answer once the database is back; a dead instance’s run is still failed', async () => {
    const cookie = (await signUp(peer.app, 'Lan')).cookie;
    const owner = as(peer.app, cookie);
    const {
      flow,
      steps: [step],
    } = await createFlow(owner, 'Blip', [{ name: 'Write', systemPrompt: 'Write one line' }]);
    const start = async () => (await owner.post(`/api/flows/${flow.id}/execute`)).json().id as string;
    const runOn = (instance: AnotherInstance, executionId: string) =>
      as(instance.app, cookie).post(`/api/executions/${executionId}/steps/${step!.id}/execute`, {
        userInput: '',
      });

    const answers = [runOn(instances[0]!, await start()), runOn(instances[1]!, await start())];
    await expect.poll(model.calls).toBe(2);
    const ids = () => instances.map((instance) => instance.app.serverInstance.id).sort();

    // The database goes away for both instances: their connections are dropped and their locks freed.
    for (const line of lines) await line.cut();
    await expect.poll(async () => (await peer.app.serverInstance.gone(ids())).sort()).toEqual(ids());
    const failed = await peer.app.crashSweep.run(0, {
      // Before the peer looks again, the database is back, and the instances take their locks again.
      lookAgainAfter: async () => {
        for (const line of lines) await line.open();
        await expect.poll(() => peer.app.serverInstance.gone(ids()), { timeout: 20_000 }).toEqual([]);
      },
    });
    expect(failed).toBe(0);
    model.release();
    for (const answer of answers) {
      const response = await answer;
      expect(response.statusCode, response.body).toBe(200);
    }

    // An instance that does not come back is dead: its run is failed as interrupted, after the look again.
    const executionId = await start();
    const lost = runOn(instances[1]!, executionId);
    await expect.poll(model.calls).toBe(3);
    await lines[1]!.cut();
    const id = instances[1]!.app.serverInstance.id;
    await expect.poll(() => peer.app.serverInstance.gone([id])).toEqual([id]);
    // Looked at again at once: that it is still gone is what counts, not how long the sweep waits first.
    expect(await peer.app.crashSweep.run(0, { lookAgainAfter: async () => {} })).toBe(1);
    const view = (await owner.get(`/api/executions/${executionId}`)).json();
    expect(view.runs.at(-1)).toMatchObject({ status: 'failed', message: 'interrupted' });
    await lines[1]!.open();
    model.release();
    expect((await lost).statusCode).not.toBe(200);
    // Two reconnections under a full suite's load: each wait above is bounded and names itself when it fails.
  }, 90_000);
});
