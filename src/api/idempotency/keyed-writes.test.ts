import { describe, expect, it } from 'vitest';
import { problemOf } from '../http/errors';
import { isFinalAnswer, takesIdempotencyKey } from './keyed-writes';

describe('takesIdempotencyKey', () => {
  it('is every write of the API but sign-in and sign-up', () => {
    expect(takesIdempotencyKey('POST', '/api/flows')).toBe(true);
    expect(takesIdempotencyKey('PUT', '/api/flows/:id')).toBe(true);
    expect(takesIdempotencyKey('PATCH', '/api/flows/:flowId/context')).toBe(true);
    expect(takesIdempotencyKey('DELETE', '/api/user-sessions/:id')).toBe(true);
    expect(takesIdempotencyKey(['GET', 'POST'], '/api/x')).toBe(true);
    expect(takesIdempotencyKey('GET', '/api/flows')).toBe(false);
    expect(takesIdempotencyKey('POST', '/api/auth/login')).toBe(false);
    expect(takesIdempotencyKey('POST', '/api/auth/register')).toBe(false);
    expect(takesIdempotencyKey('POST', '/elsewhere')).toBe(false);
    expect(takesIdempotencyKey('POST', undefined)).toBe(false);
  });
});

describe('isFinalAnswer', () => {
  const problem = (status: number, retryable = false) =>
    JSON.stringify(problemOf(status, 'conflict', 'x', { retryable }));

  it('keeps successes and the problems that will not change', () => {
    expect(isFinalAnswer(201, '{"id":"1"}')).toBe(true);
    expect(isFinalAnswer(204, '')).toBe(true);
    expect(isFinalAnswer(404, problem(404))).toBe(true);
    expect(isFinalAnswer(409, problem(409))).toBe(true);
    expect(isFinalAnswer(422, 'not json')).toBe(true);
  });

  it('gives the key back for what may pass when sent again', () => {
    expect(isFinalAnswer(409, problem(409, true))).toBe(false);
    expect(isFinalAnswer(408, problem(408))).toBe(false);
    expect(isFinalAnswer(429, problem(429))).toBe(false);
    expect(isFinalAnswer(500, problem(500))).toBe(false);
    expect(isFinalAnswer(503, problem(503, true))).toBe(false);
  });
});
