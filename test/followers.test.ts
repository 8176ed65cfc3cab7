import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Who follows the events is one list, registered by the plugins with each follower's delivery: a newcomer
 * asking "what happens after an event?" reads it here, and a follower added or dropped shows here.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the followers of the events', () => {
  it('are listed in one place, each with how it hears', () => {
    expect(t.app.followers.list()).toEqual([
      { name: 'kept states of the command handler', delivery: 'log' },
      { name: 'webhooks of workspaces: deliveries written with the events', delivery: 'transaction' },
      { name: 'websocket pushes: each watching socket, at its next position', delivery: 'every' },
      {
        name: "websocket notices: a removed member's sockets closed, a flow's watchers told of a start, inboxes told of a review",
        delivery: 'first',
      },
      { name: 'execution views kept between changes: dropped', delivery: 'first' },
      { name: 'model calls of this process: a Stop sent to any process ends them', delivery: 'log' },
      {
        name: "reviews' due times, mails and hand-backs: jobs written with the events",
        delivery: 'transaction',
      },
      {
        name: "experiments: each instance looks again at an experiment whose runs changed, or whose waiting run's people decided",
        delivery: 'first',
      },
      { name: 'the audit log (a leaf per event)', delivery: 'log' },
    ]);
  });
});
