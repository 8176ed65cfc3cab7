import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { ModelCallError } from '../ai/model-provider';
import { ExecutionRuleViolation } from '../domain/execution/types';
import { ConcurrencyConflict } from '../eventstore';

/** An error whose message is meant for the user, with its HTTP status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const notFound = (what = 'Not found') => new HttpError(404, what);

const ruleStatus = { invalid: 400, not_found: 404, conflict: 409 } as const;

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

/** The one place errors become responses: `{message, retryable?, issues?}`, no stack traces. */
export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const issues = inputIssuesOf(error);
  if (issues) {
    // The first problem, after the field it is in: `path: message`.
    const first = issues[0];
    const where = first && first.path.length > 0 ? `${first.path.join('.')}: ` : '';
    return reply.status(400).send({ message: `${where}${first?.message ?? 'Invalid input'}`, issues });
  }
  if (error instanceof HttpError || error instanceof ModelCallError) {
    // A model that failed or answered nothing usable is a bad gateway, with its own words.
    const status = error instanceof HttpError ? error.statusCode : 502;
    return reply
      .status(status)
      .send(error.retryable ? { message: error.message, retryable: true } : { message: error.message });
  }
  if (error instanceof ExecutionRuleViolation) {
    return reply.status(ruleStatus[error.kind]).send({ message: error.message });
  }
  if (error instanceof ConcurrencyConflict) {
    return reply
      .status(409)
      .send({ message: 'The execution changed at the same time; try again.', retryable: true });
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.statusCode && fastifyError.statusCode < 500) {
    return reply.status(fastifyError.statusCode).send({ message: fastifyError.message });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send({ message: 'Internal server error' });
}
