import type { FastifyRequest } from 'fastify';

/**
 * The route options that limit a model-calling route per user (not per address: users behind one proxy
 * share an address), MODEL_CALLS_PER_MINUTE calls a minute; 0 turns the limit off.
 */
export function modelCallRateLimit(perMinute: number) {
  if (perMinute === 0) return {};
  return {
    config: {
      rateLimit: {
        max: perMinute,
        timeWindow: '1 minute',
        keyGenerator: (request: FastifyRequest) => request.userId ?? request.ip,
      },
    },
  };
}
