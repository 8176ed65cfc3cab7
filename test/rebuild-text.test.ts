import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ReadModelBatch } from '../src/projections/read-model-batch';
import { READ_MODEL_TABLES, rebuildProjections } from '../src/projections/rebuild';
import { callOf, executeAllToTheEnd } from './support/execute-all';
import { scriptedModel } from './support/scripted-model';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

/** Text that a rebuild's COPY must carry exactly: its own delimiters and escapes, and any script. */
const AWKWARD = [
  'Quotes \' and " and `back`',
  'A backslash \\ then \\N, \\t and \\. as text',
  'Tab\there, a new line\nthere, a carriage return\r\nand an end-of-data line\n\\.\nafter it',
  'Tiếng Việt: Tóm tắt bài viết này, rồi đề xuất ba ý tưởng',
  'Emoji 😀🚀👩🏽‍💻 and a lone combining mark é',
  '{"nested":"a \\"quoted\\" word","list":[1,"two\\\\three"],"tab":"\\t"}',
];
const awkward = (i: number) => AWKWARD[i % AWKWARD.length]!;

async function snapshot(t: TestApp) {
  const tables: Record<string, unknown[]> = {};
  for (const table of [...READ_MODEL_TABLES, 'flows', 'steps']) {
    tables[table] = await t.db.sql.unsafe(`SELECT * FROM ${table} ORDER BY ${table}::text`);
  }
  return tables;
}

describe('rebuild of awkward text', () => {
  let t: TestApp;
  let client: Client;
  const model = scriptedModel();

  beforeAll(async () => {
    t = await createTestApp({}, { resolveModel: () => ({ provider: model.provider, keySource: 'default' }) });
    client = as(t.app, (await signUp(t.app)).cookie);
    const { flow, steps } = await createFlow(client, awkward(0), [
      { name: awkward(1), systemPrompt: awkward(2) },
      { name: awkward(3), systemPrompt: `${awkward(4)} [[step-1]]` },
    ]);
    await client.put(`/api/flows/${flow.id}`, { name: awkward(3), description: awkward(5) });
    const execution = (await client.post(`/api/flows/${flow.id}/execute`)).json();
    for (const [i, step] of steps.entries()) {
      model.answers.push(awkward(i + 2));
      const run = await client.post(`/api/executions/${execution.id}/steps/${step.id}/execute`, {
        userInput: awkward(i + 4),
      });
      expect(run.statusCode).toBe(200);
      const [result] = run.json().results;
      await client.put(`/api/step-results/${result.id}`, { result: awkward(i + 5), label: awkward(i) });
    }
    const session = (await client.post('/api/master-mode/standalone', { name: awkward(1) })).json();
    await client.post('/api/master-mode/steps', {
      sessionId: session.id,
      stepName: awkward(2),
      userInput: awkward(5),
    });
    model.answers.push(awkward(2));
    expect((await executeAllToTheEnd(callOf(client), session.id)).outcome).toBe('completed');
  });
  afterAll(() => t.close());

  it('keeps every character of the inline read models, whatever the batch size', async () => {
    const inline = await snapshot(t);
    const texts = JSON.stringify(inline);
    for (const text of AWKWARD) expect(texts).toContain(JSON.stringify(text).slice(1, -1));
    // The statements are the fallback of a batch COPY could not write: every batch must have gone by COPY.
    const fallback = vi.spyOn(ReadModelBatch.prototype, 'write');
    try {
      for (const batchSize of [1, 4, 1000]) {
        await rebuildProjections(t.db.sql, t.store, batchSize);
        expect(await snapshot(t), `batch size ${batchSize}`).toEqual(inline);
      }
      expect(fallback).not.toHaveBeenCalled();
    } finally {
      fallback.mockRestore();
    }
  });
});
