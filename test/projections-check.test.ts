import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_APP_SECRET, TEST_POOL_ENV } from './support/database';
import { as, createTestApp, signUp, type TestApp, teaFlowExecution } from './support/test-app';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLI = ['--import', 'tsx', 'src/api/cli/check-projections.ts'];

describe('npm run projections:check', () => {
  let t: TestApp;
  let executionId: string;
  let resultId: string;

  function check(): Promise<{ code: number; stdout: string; stderr: string }> {
    const env = { ...process.env, ...TEST_POOL_ENV, DATABASE_URL: t.db.url, APP_SECRET: TEST_APP_SECRET };
    return new Promise((resolve) => {
      execFile(process.execPath, CLI, { cwd: ROOT, env }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      });
    });
  }

  beforeAll(async () => {
    // Snapshots every two events: the check must leave them, and every other table, as they are.
    t = await createTestApp({ snapshotEvery: 2 });
    const client = as(t.app, (await signUp(t.app)).cookie);
    const tea = await teaFlowExecution(client);
    executionId = tea.executionId;
    const first = (await tea.run(tea.steps[0].id)).json();
    resultId = first.results[0].id;
    await client.put(`/api/step-results/${resultId}`, { approved: true });
    expect((await tea.run(tea.steps[1].id)).statusCode).toBe(200);
    await client.post('/api/workspaces', { name: 'Checked team' });
  });
  afterAll(() => t.close());

  it('finds nothing on read models the commands wrote, and writes nothing', async () => {
    const snapshots = await t.db.sql`SELECT stream_id, version FROM snapshots ORDER BY stream_id`;
    expect(snapshots.length).toBeGreaterThan(0);
    const { code, stdout, stderr } = await check();
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/^The read models are as the log gives them: \d+ events, \d+ rows, in /);
    expect(await t.db.sql`SELECT stream_id, version FROM snapshots ORDER BY stream_id`).toEqual(snapshots);
  });

  it('names each row changed by hand, and exits 1', async () => {
    // A run twice in an execution's runs, as a read model that left its log had it; a result gone.
    await t.db.sql`UPDATE executions SET runs = runs || (runs -> -1) WHERE id = ${executionId}`;
    await t.db.sql`DELETE FROM step_results WHERE id = ${resultId}`;
    const { code, stdout } = await check();
    expect(code).toBe(1);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(new RegExp(`^executions ${executionId} runs: expected .*, found .*`));
    expect(lines[1]).toBe(`step_results ${resultId}: expected a row, found none`);
    expect(lines[2]).toMatch(/^2 differences from the log \(\d+ events replayed in /);
  });
});
