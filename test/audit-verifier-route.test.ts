import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_VERIFIER_PAGE, auditVerifierRoutes } from '../src/api/audit-verifier';
import { handleError } from '../src/api/http/errors';
import { built } from './support/audit-verify-build';
import { createTestApp, type TestApp } from './support/test-app';

describe('GET /audit-verify.html: the verifier page, served', () => {
  let t: TestApp;
  beforeAll(async () => {
    built();
    t = await createTestApp();
  }, 120_000);
  afterAll(() => t?.close());

  it('answers the built page to anyone, signed out, under its own policy', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/audit-verify.html' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-disposition']).toBeUndefined();
    expect(response.body).toBe(readFileSync(AUDIT_VERIFIER_PAGE, 'utf8'));
    const policy = String(response.headers['content-security-policy']);
    expect(policy).toMatch(/^default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+';/);
    expect(policy).toMatch(/; frame-ancestors 'self'$/);
    expect(policy).not.toMatch(/unsafe/);
    // The other security headers stay as on every answer.
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('comes as a file to keep with ?download=1', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/audit-verify.html?download=1' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="audit-verify.html"');
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const bad = await t.app.inject({ method: 'GET', url: '/audit-verify.html?download=yes' });
    expect(bad.statusCode).toBe(400);
  });

  it('is a 404 problem when the page is not built', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.setErrorHandler(handleError);
    await app.register(auditVerifierRoutes, { page: '/nonexistent/audit-verify.html' });
    const response = await app.inject({ method: 'GET', url: '/audit-verify.html' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({ code: 'not_found', message: expect.stringMatching(/not built/) });
    await app.close();
  });
});
