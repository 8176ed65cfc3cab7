import type { FastifyRequest } from 'fastify';
import { z } from 'zod';

export const idParams = z.object({ id: z.uuid() });
export const flowIdParams = z.object({ flowId: z.uuid() });
/** A POST that takes no fields: an empty object, or no body at all (which reaches validation as null). */
export const noFieldsBody = z.strictObject({}).nullish();

const commandIdHeader = z.string().trim().min(1).max(200).optional();

/** A client may name its command (`Idempotency-Key`) so that sending it twice has the effect of once. */
export function commandIdOf(request: FastifyRequest): string | undefined {
  return commandIdHeader.parse(request.headers['idempotency-key']);
}
