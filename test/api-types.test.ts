import { readFile, writeFile } from 'node:fs/promises';
import openapiTS from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

const TYPES_FILE = new URL('../src/web/lib/api-schema.ts', import.meta.url);

describe('the API types the web app is written against', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('are generated from the served OpenAPI document (npm run api:types writes them)', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const generated = await openapiTS(document, { exportType: false, immutableTypes: false });
    if (process.env.WRITE_API_TYPES) await writeFile(TYPES_FILE, generated);
    expect(await readFile(TYPES_FILE, 'utf8'), 'run `npm run api:types` and commit the file').toBe(generated);
  });
});
