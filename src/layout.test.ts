import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every TypeScript file of src/ with the files of src/ it imports (type-only imports included), by a
 * relative path or by the `@/` alias of src/web/.
 */
function importGraph(): Map<string, string[]> {
  const root = import.meta.dirname;
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) files.push(full);
    }
  };
  walk(root);
  const known = new Set(files);
  const resolve = (from: string, specifier: string) => {
    const base = specifier.startsWith('@/')
      ? path.join(root, 'web', specifier.slice(2))
      : path.resolve(path.dirname(from), specifier);
    return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((candidate) =>
      known.has(candidate),
    );
  };
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const specifiers = [...text.matchAll(/(?:import|export)\s[^'"]*?from\s+'(\.[^']+|@\/[^']+)'/g)].map(
      (m) => m[1]!,
    );
    graph.set(
      path.relative(root, file),
      specifiers.flatMap((s) => resolve(file, s) ?? []).map((target) => path.relative(root, target)),
    );
  }
  return graph;
}

/** The import cycles of the graph, each as the files on it. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push(stack.slice(stack.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe('the layout of src/ (which layer may import which)', () => {
  const graph = importGraph();
  const importsOf = (folder: string) =>
    [...graph]
      .filter(([file]) => file.startsWith(`${folder}/`))
      .flatMap(([file, targets]) => targets.map((t) => [file, t]));

  it('has no import cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it.each([
    ['domain', ['domain']],
    ['eventstore', ['eventstore']],
    ['projections', ['projections', 'domain', 'eventstore']],
    ['ai', ['ai', 'domain']],
    ['machines', ['machines', 'domain']],
    ['web', ['web', 'domain', 'machines']],
    ['audit-verify', ['audit-verify', 'domain']],
  ])('%s imports only %j', (folder, allowed) => {
    const outside = importsOf(folder).filter(([, target]) => !allowed.includes(target!.split('/')[0]!));
    expect(outside).toEqual([]);
  });
});

/** The event-sourced aggregates: each one folder of src/api, reached from another aggregate only through its index.ts. */
const AGGREGATES = ['datasets', 'executions', 'experiments', 'flows', 'master-mode', 'workspaces'];

/**
 * The folders of src/api that serve routes: the aggregates, the records that are not event-sourced, and what
 * else the API serves (signing in, the models, the websocket, the checks of the event chain). Each route
 * file (a module exporting a `...Routes` plugin, named `routes.ts` or `<what>-routes.ts`) sits in one of them.
 */
const SERVING_FOLDERS = [
  ...AGGREGATES,
  'users',
  'user-sessions',
  'api-keys',
  'api-tokens',
  'recommendations',
  'request-logs',
  'suggestions',
  'conversation-context',
  'event-chain',
  'audit-log',
  'model-calls',
  'auth',
  'live-updates',
  'audit-verifier',
  'telemetry',
];

/** The only modules at the root of src/api: the app, the server process, and the one access rule. */
const API_ROOT_MODULES = ['app.ts', 'server.ts', 'access.ts', 'access.test.ts'];

const API_DIR = path.join(import.meta.dirname, 'api');

/** Every non-test TypeScript file under src/api, relative to it. */
function apiFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) found.push(path.relative(API_DIR, full));
    }
  };
  walk(API_DIR);
  return found;
}

/** The route files of src/api (relative to it): the modules that export a `...Routes` plugin or are named so. */
function routeFiles(): string[] {
  return apiFiles().filter(
    (file) =>
      /(^|\/|-)routes\.ts$/.test(file) ||
      /export (const|async function|function) \w+Routes\b/.test(
        readFileSync(path.join(API_DIR, file), 'utf8'),
      ),
  );
}

describe('the folders of src/api (one front door per aggregate)', () => {
  const graph = importGraph();
  const folderOf = (file: string) => (file.startsWith('api/') ? file.split('/')[1] : undefined);

  it('has an index.ts in every aggregate folder', () => {
    const missing = AGGREGATES.filter(
      (folder) => !statSync(path.join(API_DIR, folder, 'index.ts'), { throwIfNoEntry: false }),
    );
    expect(missing).toEqual([]);
  });

  it("lets an aggregate reach another aggregate's folder only through that folder's index.ts", () => {
    const backDoors = [...graph].flatMap(([file, targets]) => {
      const from = folderOf(file);
      if (!from || !AGGREGATES.includes(from) || file.split('/').length < 3) return [];
      return targets
        .filter((target) => {
          const to = folderOf(target);
          return to && to !== from && AGGREGATES.includes(to) && target !== `api/${to}/index.ts`;
        })
        .map((target) => `${file} -> ${target}`);
    });
    expect(backDoors).toEqual([]);
  });

  it('keeps every route file in the folder of what it serves (there is no routes/ folder)', () => {
    const astray = routeFiles().filter((file) => {
      const parts = file.split('/');
      return (
        parts.length !== 2 || !SERVING_FOLDERS.includes(parts[0]!) || !/^(.+-)?routes\.ts$/.test(parts[1]!)
      );
    });
    expect(astray).toEqual([]);
    expect(statSync(path.join(API_DIR, 'routes'), { throwIfNoEntry: false })).toBeUndefined();
  });

  it('has no loose module at the root of src/api but app.ts, server.ts and access.ts', () => {
    const loose = readdirSync(API_DIR).filter(
      (name) => !statSync(path.join(API_DIR, name)).isDirectory() && !API_ROOT_MODULES.includes(name),
    );
    expect(loose).toEqual([]);
  });
});

describe('the routes (thin: the database is reached through repositories and services)', () => {
  it.each(routeFiles())('%s neither imports postgres nor runs SQL', (file) => {
    const text = readFileSync(path.join(API_DIR, file), 'utf8');
    expect(text).not.toMatch(/from 'postgres'/);
    expect(text).not.toMatch(/\bsql`|\bsql<|app\.sql\b|\{ sql \}/);
  });
});

/**
 * The paths the Layout section of docs/architecture.md names: in its code block, each line starting with a
 * path (`src/api/`, `migrations/`), and each line indented by two spaces starting with names (`commands/`,
 * `access.ts`, `users/, user-sessions/`), those inside the path above them.
 */
function layoutPaths(markdown: string): string[] {
  const section = markdown.slice(markdown.indexOf('\n## Layout'));
  const block = section.slice(section.indexOf('```') + 3, section.indexOf('```', section.indexOf('```') + 3));
  const paths: string[] = [];
  let parent = '';
  for (const line of block.split('\n')) {
    const top = /^([\w.-]+\/(?:[\w.-]+\/)*)(?:\s|$)/.exec(line);
    if (top) {
      parent = top[1]!;
      paths.push(parent);
      continue;
    }
    const nested = /^ {2}(\S.*?)(?: {2,}|$)/.exec(line);
    if (!nested) continue;
    for (const name of nested[1]!.split(/,\s*/)) {
      if (/^[\w.-]+\/?$/.test(name)) paths.push(`${parent}${name}`);
    }
  }
  return paths;
}

describe('docs/architecture.md', () => {
  const root = path.join(import.meta.dirname, '..');
  const named = layoutPaths(readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8'));

  it('names the folders of src/api in its Layout section', () => {
    expect(named).toEqual(expect.arrayContaining(['src/api/', 'src/api/executions/', 'src/api/http/']));
  });

  it.each(named)('names %s, which exists', (name) => {
    const found = statSync(path.join(root, name), { throwIfNoEntry: false });
    expect(found !== undefined && found.isDirectory() === name.endsWith('/')).toBe(true);
  });
});
