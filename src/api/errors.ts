import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { DomainError, type ProblemKind } from '../domain/errors';
import { ConcurrencyConflict, EventTooLarge, MAX_EVENT_BYTES } from '../eventstore';

const statusOf: Record<ProblemKind, number> = {
  rule_violated: 400,
  signed_out: 401,
  not_found: 404,
  conflict: 409,
  over_limit: 429,
  too_large: 413,
  model_failed: 502,
  unavailable: 503,
};

/** One problem with the input: where it is (empty: the input as a whole) and what it is. */
export interface InputIssue {
  code: string;
  path: PropertyKey[];
  message: string;
}

/**
 * The problems of input that failed its zod schema: a ZodError thrown by a handler, or a route's declared
 * schema refusing the request (the type provider's validation error, one entry per zod issue).
 */
export function inputIssuesOf(error: unknown): InputIssue[] | null {
  if (error instanceof ZodError) return error.issues;
  if (hasZodFastifySchemaValidationErrors(error)) {
    return error.validation.map(({ keyword, instancePath, message, params }) => ({
      ...params,
      code: keyword,
      path: instancePath.split('/').filter((part) => part !== ''),
      message: message ?? 'Invalid input',
    }));
  }
  return null;
}

export const DATABASE_AWAY = 'The database is not answering; send the request again in a moment.';

/** The errors postgres.js and PostgreSQL give when the server cannot be reached or is going down. */
const CONNECTION_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

/**
 * The database is away (restarting, unreachable, shutting down): PostgreSQL's connection exceptions (08)
 * and operator interventions (57P01-57P03: terminated, crashed, starting or stopping), or a connection
 * postgres.js could not make or lost.
 */
export function isDatabaseAway(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return CONNECTION_CODES.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code);
}

/** The one place errors become responses: `{message, retryable?, issues?}`, no stack traces. */
export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const issues = inputIssuesOf(error);
  if (issues) {
    // The first problem, after the field it is in: `path: message`.
    const first = issues[0];
    const where = first && first.path.length > 0 ? `${first.path.join('.')}: ` : '';
    return reply.status(400).send({ message: `${where}${first?.message ?? 'Invalid input'}`, issues });
  }
  if (error instanceof DomainError) {
    return reply
      .status(statusOf[error.kind])
      .send(error.retryable ? { message: error.message, retryable: true } : { message: error.message });
  }
  if (error instanceof EventTooLarge) {
    // The limits on prompts and texts keep events far smaller; this is the store's last line.
    return reply.status(413).send({
      message: `What this request would record is ${error.bytes.toLocaleString('en-US')} bytes; an event may be at most ${MAX_EVENT_BYTES.toLocaleString('en-US')} bytes.`,
    });
  }
  if (error instanceof ConcurrencyConflict) {
    // A command gave up after its retries: the same request again is likely to pass.
    return reply
      .status(409)
      .send({ message: 'Changed by another request at the same time; try again.', retryable: true });
  }
  if (isDatabaseAway(error)) {
    // Nothing was done, or what was is rolled back: the same request later, or on another instance, may pass.
    return reply.status(503).header('retry-after', '2').send({ message: DATABASE_AWAY, retryable: true });
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.statusCode && fastifyError.statusCode < 500) {
    return reply.status(fastifyError.statusCode).send({ message: fastifyError.message });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send({ message: 'Internal server error' });
}
