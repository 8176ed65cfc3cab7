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
  ])('%s imports only %j', (folder, allowed) => {
    const outside = importsOf(folder).filter(([, target]) => !allowed.includes(target!.split('/')[0]!));
    expect(outside).toEqual([]);
  });
});

describe('the routes (thin: the database is reached through repositories and services)', () => {
  const dir = path.join(import.meta.dirname, 'api', 'routes');
  const routeFiles = readdirSync(dir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));

  it.each(routeFiles)('%s neither imports postgres nor runs SQL', (name) => {
    const text = readFileSync(path.join(dir, name), 'utf8');
    expect(text).not.toMatch(/from 'postgres'/);
    expect(text).not.toMatch(/\bsql`|\bsql<|app\.sql\b|\{ sql \}/);
  });
});
