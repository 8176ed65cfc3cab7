import type { FastifySchema, HTTPMethods } from 'fastify';

/** A route as fastify announces it when it is registered. */
export interface RegisteredRoute {
  method: HTTPMethods | HTTPMethods[];
  url: string;
  schema?: FastifySchema & { hide?: boolean; response?: Record<string, unknown> };
}

/** Every route the apps of this test file registered. */
export const registered: RegisteredRoute[] = [];
/** The error the last failed request ended with, to name the cause of a 5xx. */
export const serverErrors: Error[] = [];

/**
 * fastify, with every app made by it recording its routes (onRoute, added as soon as the app exists) and
 * its requests' errors. For `vi.mock('fastify', async (original) => (await import(...)).recordingFastify(...))`.
 */
export function recordingFastify<F extends typeof import('fastify')>(fastify: F): F {
  const create = ((options: Parameters<typeof fastify.default>[0]) => {
    const app = fastify.default(options);
    app.addHook('onRoute', ({ method, url, schema }) => {
      registered.push({ method, url, schema: schema as RegisteredRoute['schema'] });
    });
    app.addHook('onError', async (_request, _reply, error) => {
      serverErrors.splice(0, serverErrors.length, error);
    });
    return app;
  }) as typeof fastify.default;
  return { ...fastify, default: create } as F;
}
