import type { FastifyInstance } from 'fastify';

/** A route's path as a pattern: `:name` is one segment, `*` anything. */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((part) =>
      part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/**
 * The methods each registered path answers, learnt as routes are added (so this is called before them): a
 * request to a known path with another method is answered 405 with `Allow`, not 404.
 */
export function routeMethods(app: FastifyInstance): (path: string) => string[] {
  const routes: { pattern: RegExp; methods: string[] }[] = [];
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map(String);
    routes.push({ pattern: patternOf(route.url), methods });
  });
  return (path) => {
    const allowed = new Set<string>();
    for (const route of routes) {
      if (route.pattern.test(path)) for (const method of route.methods) allowed.add(method);
    }
    return [...allowed].sort();
  };
}
