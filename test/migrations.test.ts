import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, migrate, migrationNames } from '../src/api/database/migrate';
import { decider as flowDecider } from '../src/domain/flow/decider';
import { flowStreamId } from '../src/domain/flow/events';
import { EventStore } from '../src/eventstore';
import { toFlowEvent } from '../src/projections/project-flow-events';
import { createTestDatabase, type TestDatabase } from './support/database';

/** Every migration from `first` on: what a database made before `first` is migrated through. */
const migrationsFrom = async (first: string) => (await migrationNames()).filter((name) => name >= first);

describe('migrations', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('creates every table of the product and records each file once', async () => {
    const tables = await db.sql<{ tableName: string }[]>`
      SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`;
    const names = tables.map((t) => t.tableName);
    for (const table of [
      'users',
      'sessions',
      'user_api_keys',
      'api_tokens',
      'user_usage',
      'user_sessions',
      'flows',
      'steps',
      'executions',
      'step_results',
      'ai_request_logs',
      'ai_suggestions',
      'ai_conversation_context',
      'rejected_ideas',
      'workflow_recommendations',
      'user_workflow_patterns',
      'recommendation_feedback',
      'workflow_templates',
      'master_mode_sessions',
      'master_mode_steps',
      'streams',
      'events',
      'user_credentials',
      'webhooks',
      'webhook_deliveries',
      'schema_migrations',
    ]) {
      expect(names).toContain(table);
    }
    expect(await migrate(db.sql)).toEqual([]);
  });

  it('applies concurrently from two connections without applying anything twice', async () => {
    const again = await Promise.all([migrate(db.sql), migrate(db.sql)]);
    expect(again).toEqual([[], []]);
    const [row] = await db.sql<{ count: number }[]>`SELECT count(*)::int AS count FROM schema_migrations`;
    const files = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql'));
    expect(row?.count).toBe(files.length);
  });

  it('gives the documented defaults', async () => {
    const [user] = await db.sql<
      { id: string }[]
    >`INSERT INTO users (email) VALUES ('a@example.com') RETURNING id`;
    const [flow] =
      await db.sql`INSERT INTO flows (user_id, name, description) VALUES (${user!.id}, 'F', 'D') RETURNING *`;
    expect(flow).toMatchObject({ status: 'draft', isTemplate: false });
    const [step] =
      await db.sql`INSERT INTO steps (flow_id, "order", name) VALUES (${flow!.id}, 1, 'S') RETURNING *`;
    expect(step).toMatchObject({
      outputMode: 'single',
      inputSources: [],
      choices: [],
      maxLoopIterations: 1,
      currentLoopIteration: 0,
      requiresUserInput: false,
      loopTargetStepId: null,
    });
  });

  it('turns every flow of a database made before flow streams into a stream of one FlowImported, losing nothing', async () => {
    const before = await createTestDatabase({ migrationsBelow: '011' });
    try {
      const { sql } = before;
      const [user] = await sql<
        { id: string }[]
      >`INSERT INTO users (email) VALUES ('b@example.com') RETURNING id`;
      const [flow] = await sql<{ id: string }[]>`
        INSERT INTO flows (user_id, name, description, status) VALUES (${user!.id}, 'Old', 'From before', 'active')
        RETURNING id`;
      await sql`INSERT INTO flows (user_id, name, description) VALUES (${user!.id}, 'Empty', 'No steps')`;
      const [first] = await sql<{ id: string }[]>`
        INSERT INTO steps (flow_id, "order", name, system_prompt, output_mode, choices)
        VALUES (${flow!.id}, 1, 'Pick', 'Choose', 'multiple_choice', ${sql.json(['A', 'B'])}) RETURNING id`;
      await sql`
        INSERT INTO steps (flow_id, "order", name, system_prompt, input_sources, requires_user_input)
        VALUES (${flow!.id}, 2, 'Write', 'Write about [[step-1]]', ${sql.json([first!.id])}, true)`;

      expect(await migrate(sql)).toEqual(await migrationsFrom('011_flow_streams.sql'));

      const flows = await sql`SELECT * FROM flows ORDER BY id`;
      expect(flows.map((row) => Number(row.version))).toEqual([1, 1]);
      const store = new EventStore(sql);
      for (const row of flows) {
        const { version, events } = await store.readStream(flowStreamId(row.id));
        expect(version).toBe(1);
        expect(events.map((event) => event.type)).toEqual(['FlowImported']);
        expect(events[0]!.metadata).toMatchObject({ userId: user!.id });
        const state = events.map(toFlowEvent).reduce(flowDecider.evolve, flowDecider.initialState());
        expect(state).toMatchObject({
          flowId: row.id,
          userId: user!.id,
          details: { name: row.name, description: row.description, status: row.status, isTemplate: false },
          createdAt: row.createdAt.toISOString(),
          updatedAt: row.updatedAt.toISOString(),
        });
        const steps = await sql`
          SELECT id, "order", name, system_prompt, output_mode, input_sources, choices, loop_target_step_id,
                 max_loop_iterations, current_loop_iteration, requires_user_input, created_at
          FROM steps WHERE flow_id = ${row.id} ORDER BY "order", created_at, id`;
        expect(state.steps).toEqual(
          steps.map((step) => ({ ...step, createdAt: step.createdAt.toISOString() })),
        );
      }
    } finally {
      await before.drop();
    }
  });

  it("counts each user's runs made without an own key from the rows there, then as rows are inserted", async () => {
    const before = await createTestDatabase({ migrationsBelow: '013' });
    try {
      const { sql } = before;
      const [ann, ben] = [crypto.randomUUID(), crypto.randomUUID()];
      const usage = (userId: string, usedDefaultKey: boolean, id: string = crypto.randomUUID()) => sql`
        INSERT INTO user_usage (id, user_id, used_default_key) VALUES (${id}, ${userId}, ${usedDefaultKey})
        ON CONFLICT (id) DO NOTHING`;
      await usage(ann, true);
      await usage(ann, true);
      await usage(ann, false);
      await usage(ben, false);

      expect(await migrate(sql)).toEqual(await migrationsFrom('013_user_usage_counts.sql'));
      const counts = async () =>
        Object.fromEntries(
          (
            await sql<{ userId: string; defaultKeyRuns: number }[]>`
            SELECT user_id, default_key_runs::int FROM user_usage_counts`
          ).map((row) => [row.userId, row.defaultKeyRuns]),
        );
      expect(await counts()).toEqual({ [ann]: 2 });

      // Only rows inserted count: an own key's run no more than a repeated id.
      const repeated = crypto.randomUUID();
      await usage(ben, true, repeated);
      await usage(ben, true, repeated);
      await usage(ben, false);
      await usage(ann, true);
      expect(await counts()).toEqual({ [ann]: 3, [ben]: 1 });
    } finally {
      await before.drop();
    }
  });

  it('a request logged before runs named their unreviewed results lists none', async () => {
    const before = await createTestDatabase({ migrationsBelow: '016' });
    try {
      const { sql } = before;
      const id = crypto.randomUUID();
      const [user, flow, execution, step, event] = Array.from({ length: 5 }, () => crypto.randomUUID());
      await sql`
        INSERT INTO ai_request_logs (id, user_id, flow_id, execution_id, step_id, step_order, started_event_id,
                                     original_system_prompt, final_prompt, output_mode, position)
        VALUES (${id}, ${user!}, ${flow!}, ${execution!}, ${step!}, 2, ${event!}, 'Use [[step-1]]', 'Use it',
                'single', 3)`;
      expect(await migrate(sql)).toEqual(await migrationsFrom('016_unreviewed_results.sql'));
      const [log] = await sql<{ unreviewedResults: unknown }[]>`
        SELECT unreviewed_results FROM ai_request_logs WHERE id = ${id}`;
      expect(log!.unreviewedResults).toEqual([]);
    } finally {
      await before.drop();
    }
  });

  it("puts every master mode session's owner on its stream: after its runs, or as a stream of its own", async () => {
    const before = await createTestDatabase({ migrationsBelow: '017' });
    try {
      const { sql } = before;
      const [user] = await sql<
        { id: string }[]
      >`INSERT INTO users (email) VALUES ('m@example.com') RETURNING id`;
      const sessions = await sql<{ id: string }[]>`
        INSERT INTO master_mode_sessions (user_id, session_name)
        VALUES (${user!.id}, 'Ran'), (${user!.id}, 'Never ran') RETURNING id`;
      const [ran, neverRan] = sessions.map((s) => s.id) as [string, string];
      // Appended as that version's store appended it: today's computes each event's hash (migration 040).
      await sql`INSERT INTO streams (stream_id, stream_type, version) VALUES (${`master-${ran}`}, 'master', 1)`;
      await sql`
        INSERT INTO events (stream_id, stream_position, event_id, event_type, data, metadata)
        VALUES (${`master-${ran}`}, 1, gen_random_uuid(), 'MasterResultsReset',
                ${sql.json({ at: '2026-01-01T00:00:00.000Z' })}, ${sql.json({ at: '2026-01-01T00:00:00.000Z' })})`;
      expect(await migrate(sql)).toEqual(await migrationsFrom('017_master_session_owners.sql'));
      const store = new EventStore(sql);

      const opened = {
        type: 'MasterSessionOpened',
        data: expect.objectContaining({ ownerId: user!.id, flowId: null }),
      };
      const afterRuns = await store.readStream(`master-${ran}`);
      expect(afterRuns.version).toBe(2);
      expect(afterRuns.events.map((e) => e.type)).toEqual(['MasterResultsReset', 'MasterSessionOpened']);
      expect(afterRuns.events[1]).toMatchObject({ ...opened, streamPosition: 2 });
      expect(afterRuns.events[1]!.data).toMatchObject({ sessionId: ran, sessionName: 'Ran' });
      const ofItsOwn = await store.readStream(`master-${neverRan}`);
      expect(ofItsOwn.version).toBe(1);
      expect(ofItsOwn.events).toEqual([expect.objectContaining({ ...opened, streamPosition: 1 })]);
      // The appends go on from there.
      await store.append(`master-${neverRan}`, 'master', 1, [
        { type: 'MasterResultsReset', data: { at: '2026-01-02T00:00:00.000Z' } },
      ]);
    } finally {
      await before.drop();
    }
  });
});
