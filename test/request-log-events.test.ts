import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, type Client, createTestApp, signUp, type TestApp, teaFlowExecution } from './support/test-app';

describe('AI request logs link to their StepRunStarted event', () => {
  let t: TestApp;
  let alice: Client;

  beforeAll(async () => {
    t = await createTestApp();
    alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
  });
  afterAll(() => t?.close());

  it('answers each log with the id, stream position, execution and command of the event that started it', async () => {
    const { flow, steps, executionId, run } = await teaFlowExecution(alice);
    expect((await run(steps[0].id, { 'Idempotency-Key': 'first-run-key' })).statusCode).toBe(200);
    expect((await run(steps[1].id)).statusCode).toBe(200);

    const { events } = await t.store.readStream(`execution-${executionId}`);
    const started = events.filter((event) => event.type === 'StepRunStarted');
    expect(started).toHaveLength(2);

    const logs = (await alice.get(`/api/flows/${flow.id}/logs`)).json() as Array<{
      id: string;
      stepOrder: number;
      startedEventId: string;
      startedEvent: { id: string; position: number; executionId: string; commandId: string };
    }>;
    expect(logs.map((log) => log.stepOrder)).toEqual([2, 1]);
    for (const log of logs) {
      const event = started.find((e) => e.eventId === log.startedEvent.id)!;
      expect(event).toBeDefined();
      expect((event.data as { runId: string }).runId).toBe(log.id);
      expect(log.startedEvent).toEqual({
        id: event.eventId,
        position: event.streamPosition,
        executionId,
        commandId: event.metadata.commandId,
      });
      expect(log.startedEventId).toBe(event.eventId);
    }
    // A client's Idempotency-Key is the command id the log names, so `npm run events -- command` finds it.
    expect(logs[1]!.startedEvent.commandId).toBe('first-run-key');
    // Step 1's run started after ExecutionStarted and the step sync of the run; step 2's later.
    expect(logs[1]!.startedEvent.position).toBeLessThan(logs[0]!.startedEvent.position);
  });
});
