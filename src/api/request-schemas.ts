import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { FILLED } from '../domain/filled-text';

export const idParams = z.object({ id: z.uuid() });
export const flowIdParams = z.object({ flowId: z.uuid() });
/** A POST that takes no fields: an empty object, or no body at all (which reaches validation as null). */
export const noFieldsBody = z.strictObject({}).nullish();

/** The client's name for one request, at most 200 characters: see the idempotency plugin. */
export const idempotencyKeyHeader = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .meta(FILLED)
  .optional()
  .describe(
    'Names this request, so that sending it again (a retry, a proxy passing it to another instance) has the effect of once and answers the first outcome. A new random key (a UUID) for each user action; the same key with another request answers 422. Kept 24 hours.',
  );

/** A client may name its command (`Idempotency-Key`) so that sending it twice has the effect of once. */
export function commandIdOf(request: FastifyRequest): string | undefined {
  return idempotencyKeyHeader.parse(request.headers['idempotency-key']);
}
