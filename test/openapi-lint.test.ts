import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../src/api/runtime/project-root';
import { createTestApp, type TestApp } from './support/test-app';

const run = promisify(execFile);

/** Redocly's CLI as installed (no network: no telemetry, no update check). */
const REDOCLY = path.join(PROJECT_ROOT, 'node_modules/.bin/redocly');

/** Every `pattern` of a schema anywhere in the document, with where it is. */
function patternsOf(node: unknown, where: string[] = []): { where: string; pattern: string }[] {
  if (Array.isArray(node)) return node.flatMap((item, i) => patternsOf(item, [...where, String(i)]));
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === 'pattern' && typeof value === 'string'
      ? [{ where: [...where, key].join('/'), pattern: value }]
      : patternsOf(value, [...where, key]),
  );
}

describe('the served OpenAPI document stays valid', () => {
  let t: TestApp;
  let document: Record<string, unknown>;
  let folder: string;
  let file: string;

  beforeAll(async () => {
    t = await createTestApp();
    // Open to anyone: fetched as a tool would, without a session.
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    document = response.json();
    folder = await mkdtemp(path.join(tmpdir(), 'openapi-lint-'));
    file = path.join(folder, 'openapi.json');
    await writeFile(file, response.body);
  });
  afterAll(async () => {
    await t.close();
    await rm(folder, { recursive: true, force: true });
  });

  it("passes Redocly's recommended rules with 0 errors", async () => {
    const result = await run(REDOCLY, ['lint', '--extends=recommended', '--format=json', file], {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        REDOCLY_TELEMETRY: 'off',
        REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
        NO_COLOR: '1',
      },
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string }) => ({
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }));
    const report = JSON.parse(result.stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
    };
    const errors = report.problems
      .filter((problem) => problem.severity === 'error')
      .map((problem) => `${problem.ruleId} ${problem.location[0]?.pointer}: ${problem.message}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
    // The one warning kept on purpose: the project names no license (docs/api.md).
    expect(report.problems.filter((problem) => problem.severity !== 'error').map((p) => p.ruleId)).toEqual([
      'info-license',
    ]);
  });

  it('validates with swagger-parser (OpenAPI 3.1 schema and references)', async () => {
    // validate() dereferences the object it is given: a copy, so the other tests read the document as served.
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  it('writes patterns every JSON Schema engine reads: no Unicode property escapes (\\p{…})', () => {
    const patterns = patternsOf(document);
    expect(patterns.length).toBeGreaterThan(0);
    expect(patterns.filter(({ pattern }) => /\\[pP]\{/.test(pattern))).toEqual([]);
    // Each compiles without the `u` flag, as an engine without Unicode-mode patterns reads it.
    for (const { where, pattern } of patterns) expect(() => new RegExp(pattern), where).not.toThrow();
  });
});
