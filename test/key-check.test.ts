import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEvents as runCli } from './support/events-cli';
import { startServerProcess } from './support/server-process';
import { as, type Client, createTestApp, signUp, type TestApp, teaFlowExecution } from './support/test-app';

const OTHER_SECRET = 'another-secret-another-secret-another-0123456789';
const MISMATCH = "APP_SECRET does not match this database's records (key check failed)";

/**
 * A server or tool under another APP_SECRET than the one a database's records were made with says so, rather
 * than find every record changed at its first event: the key check.
 */
describe('the key check', () => {
  let t: TestApp;
  let alice: Client;
  let executionId: string;

  const runEvents = (args: string[], env: Record<string, string> = {}) => runCli(t.db.url, args, env);

  beforeAll(async () => {
    t = await createTestApp();
    alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
    const execution = await teaFlowExecution(alice);
    for (const step of execution.steps) expect((await execution.run(step.id)).statusCode).toBe(200);
    executionId = execution.executionId;
  });
  afterAll(() => t.close());

  it('keeps a server with another APP_SECRET from starting unless ALLOW_KEY_MISMATCH=1', async () => {
    // No check stored yet: the first events of the records tell that the key is not theirs.
    await expect(startServerProcess(t.db.url, { APP_SECRET: OTHER_SECRET })).rejects.toThrow(MISMATCH);
    expect(await t.db.sql`SELECT 1 FROM event_key_check`).toHaveLength(0);

    // The right secret's first start stores the check; another secret is then refused by it.
    const right = await startServerProcess(t.db.url);
    await right.stop();
    expect(await t.db.sql`SELECT 1 FROM event_key_check`).toHaveLength(1);
    await expect(startServerProcess(t.db.url, { APP_SECRET: OTHER_SECRET })).rejects.toThrow(MISMATCH);

    const allowed = await startServerProcess(t.db.url, { APP_SECRET: OTHER_SECRET, ALLOW_KEY_MISMATCH: '1' });
    await allowed.stop();
  }, 120_000);

  it('makes the events tool and the verify route say the key does not match, not that records changed', async () => {
    const good = await runEvents(['verify', executionId]);
    expect(good.code).toBe(0);
    const wrong = await runEvents(['verify', executionId], { APP_SECRET: OTHER_SECRET });
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toContain("the key does not match this database's records");
    expect(wrong.stdout).not.toContain('CHANGED');
    expect(wrong.stderr).toContain(MISMATCH);
    const json = await runEvents(['verify', executionId, '--json'], { APP_SECRET: OTHER_SECRET });
    expect(JSON.parse(json.stdout.trim().split('\n')[0]!)).toMatchObject({
      verified: false,
      keyMismatch: true,
    });

    expect((await alice.get(`/api/executions/${executionId}/verify`)).json()).toMatchObject({
      verified: true,
    });
    // The route's server under a key the stored check was not made with: the check is made to differ.
    const [stored] = await t.db.sql<{ value: Buffer }[]>`SELECT check_value AS value FROM event_key_check`;
    await t.db.sql`
      INSERT INTO event_key_check (check_value) VALUES (sha256('another key'::bytea))
      ON CONFLICT (only_row) DO UPDATE SET check_value = excluded.check_value`;
    // A record that checks stays verified; one that does not is named as not checkable with this key.
    await t.db.sql`
      UPDATE events SET data = jsonb_set(data, '{userInput}', '"black tea"')
      WHERE stream_id = ${`execution-${executionId}`} AND stream_position = 2`;
    expect((await alice.get(`/api/executions/${executionId}/verify`)).json()).toEqual({
      checkpoint: null,
      verified: false,
      events: 6,
      keyMismatch: true,
      message: "the key does not match this database's records",
    });
    if (stored) await t.db.sql`UPDATE event_key_check SET check_value = ${stored.value}`;
    else await t.db.sql`DELETE FROM event_key_check`;
    expect((await alice.get(`/api/executions/${executionId}/verify`)).json()).toMatchObject({
      verified: false,
      firstBadPosition: 2,
    });
  }, 120_000);
});
