import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, migrate } from '../src/api/database/migrate';
import { createTestDatabase, type TestDatabase } from './support/database';

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

  it('gives the spec defaults', async () => {
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
});
