import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors';

/**
 * The route options that limit a model-calling route per user (not per address: users behind one proxy
 * share an address), MODEL_CALLS_PER_MINUTE calls a minute, only of requests whose input is valid; 0 turns
 * the limit off.
 */
export function modelCallRateLimit(perMinute: number) {
  if (perMinute === 0) return {};
  return {
    config: {
      rateLimit: {
        max: perMinute,
        timeWindow: '1 minute',
        keyGenerator: (request: FastifyRequest) => request.userId ?? request.ip,
        // Counted after the input is validated: a malformed request costs nothing of the limit.
        hook: 'preHandler' as const,
        errorResponseBuilder: (_request: FastifyRequest, context: { ttl: number }) =>
          new DomainError(
            'over_limit',
            `Quá nhiều lần gọi model; vui lòng thử lại sau ${secondsOf(context.ttl)} giây`,
            {
              code: 'model_call_rate_limited',
            },
          ),
      },
    },
  };
}

/** A wait in whole seconds, as Retry-After says it (at least 1). */
export const secondsOf = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
