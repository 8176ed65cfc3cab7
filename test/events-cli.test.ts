import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aFlowStep } from '../src/domain/execution/testing';
import { type FlowEvent, flowStreamId, type VersionedStep } from '../src/domain/flow/events';
import type { RecordedEvent } from '../src/eventstore';
import { TEST_POOL_ENV } from './support/database';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLI = ['--import', 'tsx', 'src/api/cli/events.ts'];
const AT = '2026-03-04T05:06:07.000Z';
const DETAILS = { name: 'Soup', description: 'From stock to bowl', status: 'draft', isTemplate: false };

function versioned(id: string, order: number, fields: Partial<VersionedStep> = {}): VersionedStep {
  const { flowId: _flow, ...step } = aFlowStep(order, { id, createdAt: AT, ...fields });
  return step;
}

/** A flow's stream: created with one step, a step added, the first step's prompt edited, made active. */
function flowVersionsOf(flowId: string, userId: string): FlowEvent[] {
  const stock = versioned(randomUUID(), 1, { name: 'Stock' });
  const bowl = versioned(randomUUID(), 2, { name: 'Bowl', inputSources: [stock.id] });
  return [
    {
      type: 'FlowCreated',
      data: { flowId, userId, origin: 'manual', details: DETAILS, steps: [stock], at: AT },
    },
    { type: 'StepAdded', data: { step: bowl, at: AT } },
    {
      type: 'StepEdited',
      data: { stepId: stock.id, before: { systemPrompt: 'Boil' }, after: { systemPrompt: 'Simmer' }, at: AT },
    },
    { type: 'FlowStatusChanged', data: { before: 'draft', after: 'active', at: AT } },
  ];
}

describe('npm run events', () => {
  let t: TestApp;
  let alice: Client;
  let aliceId: string;
  let bobId: string;
  let executionId: string;
  let events: RecordedEvent[];

  const env = () => ({ ...process.env, ...TEST_POOL_ENV, DATABASE_URL: t.db.url, NO_COLOR: '1' });

  function runEvents(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, [...CLI, ...args], { cwd: ROOT, env: env() }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      });
    });
  }

  const lines = (stdout: string) => stdout.split('\n').filter((line) => line !== '');

  beforeAll(async () => {
    t = await createTestApp();
    const aliceAccount = await signUp(t.app, 'Alice');
    alice = as(t.app, aliceAccount.cookie);
    aliceId = aliceAccount.user.id;
    bobId = (await signUp(t.app, 'Bob')).user.id;
    const { flow, steps } = await createFlow(alice, 'Tea', [
      { name: 'Ideas', systemPrompt: 'List three ideas about tea.' },
      { name: 'Pick', systemPrompt: 'Pick the best of [[step-1]].' },
    ]);
    executionId = (await alice.post(`/api/flows/${flow.id}/execute`)).json().id;
    for (const step of steps) {
      const run = await alice.post(`/api/executions/${executionId}/steps/${step.id}/execute`, {
        userInput: 'green tea',
      });
      expect(run.statusCode).toBe(200);
    }
    events = (await t.store.readStream(`execution-${executionId}`)).events;
    expect(events.map((event) => event.type)).toEqual([
      'ExecutionStarted',
      'StepRunStarted',
      'StepRunSucceeded',
      'StepRunStarted',
      'StepRunSucceeded',
      'ExecutionCompleted',
    ]);
  });
  afterAll(() => t?.close());

  it('shows every event of an execution in order, one line each', async () => {
    const { code, stdout } = await runEvents(['show', executionId]);
    expect(code).toBe(0);
    const shown = lines(stdout);
    expect(shown).toHaveLength(events.length);
    shown.forEach((line, i) => {
      const event = events[i]!;
      expect(line.startsWith(`${event.createdAt}  execution-${executionId}#${i + 1}  ${event.type} `)).toBe(
        true,
      );
      expect(line).toContain(`actor=${event.metadata.userId}`);
      expect(line).toContain(`command=${event.metadata.commandId}`);
    });
    const runStarted = events[3]!.data as { runId: string };
    expect(shown[3]).toContain(
      `step 2 run ${runStarted.runId} (single, offline, offline key) input "green tea"`,
    );
  });

  it('shows every event of a flow in order, one line each, saying what each version changed', async () => {
    const flowId = randomUUID();
    const userId = randomUUID();
    const history = flowVersionsOf(flowId, userId);
    const flowEvents: RecordedEvent[] = [];
    for (const [i, event] of history.entries()) {
      const appended = await t.store.append(flowStreamId(flowId), 'flow', i, [
        { ...event, metadata: { userId, commandId: `flow-command-${i + 1}` } },
      ]);
      flowEvents.push(...appended.events);
    }
    const [, added, edited] = history as [
      FlowEvent,
      FlowEvent & { type: 'StepAdded' },
      FlowEvent & { type: 'StepEdited' },
    ];

    const { code, stdout, stderr } = await runEvents(['show', flowId]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(lines(stdout)).toEqual(
      [
        'Tạo thủ công, gồm 1 step, named "Soup"',
        `Thêm step "Bowl" (step ${added.data.step.id})`,
        `Sửa step "Stock": prompt (step ${edited.data.stepId})`,
        'Đổi status: draft → active',
      ].map((summary, i) => {
        const event = flowEvents[i]!;
        return [
          event.createdAt,
          `flow-${flowId}#${i + 1}`,
          event.type.padEnd(18),
          `actor=${userId}`,
          `command=flow-command-${i + 1}`,
          summary,
        ].join('  ');
      }),
    );

    const json = await runEvents(['show', flowId, '--json']);
    expect(lines(json.stdout).map((line) => JSON.parse(line))).toMatchObject(
      flowEvents.map((event) => ({ streamId: `flow-${flowId}`, eventId: event.eventId, data: event.data })),
    );
  });

  it('answers JSON, one object per line, with what the log holds', async () => {
    const { code, stdout } = await runEvents(['show', executionId, '--json']);
    expect(code).toBe(0);
    const shown = lines(stdout).map((line) => JSON.parse(line));
    expect(shown).toEqual(
      events.map((event) => ({
        streamId: event.streamId,
        position: event.streamPosition,
        globalPosition: event.globalPosition,
        eventId: event.eventId,
        type: event.type,
        createdAt: event.createdAt,
        metadata: event.metadata,
        data: event.data,
      })),
    );
  });

  it('shows the events one command appended, and only those', async () => {
    const commandId = events.at(-1)!.metadata.commandId!;
    const ofCommand = events.filter((event) => event.metadata.commandId === commandId);
    // The last run's outcome completes the execution in the same append.
    expect(ofCommand.map((event) => event.type)).toEqual(['StepRunSucceeded', 'ExecutionCompleted']);

    const text = await runEvents(['command', commandId]);
    expect(text.code).toBe(0);
    expect(lines(text.stdout).map((line) => line.split('  ')[1])).toEqual(
      ofCommand.map((event) => `execution-${executionId}#${event.streamPosition}`),
    );

    const json = await runEvents(['command', commandId, '--json']);
    expect(lines(json.stdout).map((line) => JSON.parse(line).eventId)).toEqual(
      ofCommand.map((event) => event.eventId),
    );
  });

  it('reads with the eyes of the user named by --as: their own streams, and nobody else’s', async () => {
    const commandId = events.at(-1)!.metadata.commandId!;
    const own = await runEvents(['show', executionId, '--as', aliceId]);
    expect(own.code).toBe(0);
    expect(lines(own.stdout)).toHaveLength(events.length);
    expect(lines((await runEvents(['command', commandId, '--as', aliceId])).stdout)).toHaveLength(2);

    // Another user's execution is missing to them, as the app answers 404.
    const foreign = await runEvents(['show', executionId, '--as', bobId]);
    expect(foreign).toMatchObject({ code: 1, stdout: '' });
    expect(foreign.stderr).toContain(`No execution or flow ${executionId} in the event log.`);
    const foreignCommand = await runEvents(['command', commandId, '--as', bobId]);
    expect(foreignCommand).toMatchObject({ code: 1, stdout: '' });
  });

  it('says so when nothing is found, and refuses malformed ids and unknown commands', async () => {
    const missing = await runEvents(['show', '0b6f0d6e-4a7e-4c43-9d1b-2f0e3a9b8c71']);
    expect(missing).toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining(
        'No execution or flow 0b6f0d6e-4a7e-4c43-9d1b-2f0e3a9b8c71 in the event log.',
      ),
    });
    expect((await runEvents(['command', 'never-sent'])).stderr).toContain(
      'No events of command never-sent in the event log.',
    );
    const malformed = await runEvents(['show', 'not-an-id']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain("Malformed execution or flow id 'not-an-id'");
    const unknown = await runEvents(['follow']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown command 'follow'.");
  });

  it('tails the log live: a command sent through the app and a new version of a flow appear as lines', async () => {
    const child = spawn(process.execPath, [...CLI, 'tail'], { cwd: ROOT, env: env() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | string | null>((resolve) =>
      child.once('exit', (code, signal) => resolve(code ?? signal)),
    );
    try {
      await expect.poll(() => stderr, { timeout: 20_000, interval: 50 }).toContain('Following the event log');
      expect(stdout).toBe('');

      const stop = await alice.post(`/api/executions/${executionId}/stop`);
      expect(stop.statusCode).toBe(200);
      const stopped = `execution-${executionId}#${events.length + 1}  ExecutionStopped`;
      await expect.poll(() => stdout, { timeout: 10_000, interval: 50 }).toContain(stopped);
      expect(lines(stdout)).toHaveLength(1);

      const flowId = randomUUID();
      const [created] = flowVersionsOf(flowId, 'user-1');
      await t.store.append(flowStreamId(flowId), 'flow', 'no_stream', [created!]);
      const flowCreated = `flow-${flowId}#1  FlowCreated         actor=-  command=-  Tạo thủ công, gồm 1 step, named "Soup"`;
      await expect.poll(() => stdout, { timeout: 10_000, interval: 50 }).toContain(flowCreated);
      expect(lines(stdout)).toHaveLength(2);
    } finally {
      child.kill('SIGTERM');
    }
    // Ended by the signal, as a reader should be (143 = 128 + SIGTERM when an exit hook reports it).
    expect([143, 'SIGTERM']).toContain(await exited);
  });
});
