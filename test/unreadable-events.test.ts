import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, OFFLINE_MODEL, type TestApp } from './support/test-app';
import { join, ok, person as personOf } from './support/workspace-people';

/**
 * An execution's event rewritten in the database into something the domain cannot read (a field missing, an
 * unknown type): the history, the state at a point and the review audit still answer, and name it.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ freeStepAllowance: 1_000 }, OFFLINE_MODEL);
});
afterAll(() => t.close());

describe('an unreadable event in an execution', () => {
  it('is shown raw as unreadable; the state and the review audit leave it out', async () => {
    const owner = await personOf(t.app, 'Owner');
    const ana = await personOf(t.app, 'Ana');
    const { id: workspaceId } = ok(await owner.client.post('/api/workspaces', { name: 'Team' }), 201);
    await join(owner, workspaceId, ana, 'reviewer');
    const flow = ok(
      await owner.client.post('/api/flows', { name: 'Blog', description: 'Posts', workspaceId }),
      201,
    );
    const step = ok(
      await owner.client.post('/api/steps', {
        flowId: flow.id,
        name: 'Draft',
        order: 1,
        systemPrompt: 'Write a short post about tea.',
        review: { by: 'members', userIds: [ana.id], approvals: 1 },
      }),
      201,
    );
    const execution = ok(await owner.client.post(`/api/flows/${flow.id}/execute`), 201);
    const run = ok(await owner.client.post(`/api/executions/${execution.id}/steps/${step.id}/execute`, {}));
    const reviewId = run.execution.reviews[0].id as string;
    ok(await ana.client.post(`/api/reviews/${reviewId}/approve`, {}));

    const streamId = `execution-${execution.id}`;
    const [approved] = await t.db.sql<{ position: number }[]>`
      SELECT stream_position AS position FROM events
      WHERE stream_id = ${streamId} AND event_type = 'ReviewApproved'`;
    const position = Number(approved!.position);
    await t.db.sql`
      UPDATE events SET data = '{"x":1}' WHERE stream_id = ${streamId} AND stream_position = ${position}`;
    // The event after it (the result's approval) is given a type no execution event has.
    const other = position + 1;
    await t.db.sql`
      UPDATE events SET event_type = 'SomethingElse' WHERE stream_id = ${streamId} AND stream_position = ${other}`;

    const history = await owner.client.get(`/api/executions/${execution.id}/events`);
    expect(history.statusCode).toBe(200);
    const items = history.json().items as { position: number; type: string; readable?: boolean }[];
    expect(items.find((item) => item.position === position)).toMatchObject({
      type: 'ReviewApproved',
      readable: false,
      raw: { x: 1 },
      actor: { userId: ana.id },
    });
    expect(items.find((item) => item.position === other)).toMatchObject({
      type: 'SomethingElse',
      readable: false,
    });
    const readable = items.filter((item) => item.readable === undefined);
    expect(readable.length).toBe(items.length - 2);
    expect(readable[0]).toMatchObject({ type: 'ExecutionStarted', position: 1 });

    for (const at of [position, undefined]) {
      const state = await owner.client.get(
        `/api/executions/${execution.id}/state${at === undefined ? '' : `?at=${at}`}`,
      );
      expect(state.statusCode).toBe(200);
      expect(state.json()).toMatchObject({
        version: at ?? items.length,
        unreadable: at === undefined ? [position, other] : [position],
      });
      // Ana's approval is not read: the review still waits.
      expect(state.json().reviews[0]).toMatchObject({ id: reviewId, status: 'pending' });
    }
    const before = await owner.client.get(`/api/executions/${execution.id}/state?at=${position - 1}`);
    expect(before.json().unreadable).toEqual([]);

    const audit = await owner.client.get(`/api/executions/${execution.id}/reviews/audit`);
    expect(audit.statusCode).toBe(200);
    expect(audit.headers['unreadable-events']).toBe(`${position},${other}`);
    expect(audit.json()).toMatchObject([{ reviewId, status: 'pending', decisions: [] }]);

    // The audit file and the record check answer too: the record was changed at the rewritten event.
    for (const format of ['json', 'csv']) {
      const file = await owner.client.get(`/api/executions/${execution.id}/audit?format=${format}`);
      expect(file.statusCode).toBe(200);
    }
    expect((await owner.client.get(`/api/executions/${execution.id}/verify`)).json()).toMatchObject({
      verified: false,
      firstBadPosition: position,
    });
  });
});
