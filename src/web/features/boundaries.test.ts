import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The web app's features stay apart: a feature uses another only through what that one's index.ts exports
 * (a test may also use its testing.ts), and no two features use each other, so each can be read, and
 * changed, from its own folder.
 */

const FEATURES = path.resolve(import.meta.dirname);

interface Use {
  file: string;
  from: string;
  to: string;
  /** The import as written. */
  specifier: string;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

/** Every import (and vi.mock) of one feature's file that reaches into another feature. */
function usesAcross(): Use[] {
  return sources(FEATURES).flatMap((file) => {
    const from = path.relative(FEATURES, file).split(path.sep)[0]!;
    if (!readdirSync(FEATURES).includes(from) || from === path.basename(file)) return [];
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(/(?:from|import\(|vi\.mock\()\s*'([^']+)'/g)].flatMap(([, specifier]) => {
      const target = specifier!.startsWith('@/features/')
        ? specifier!.slice('@/features/'.length)
        : specifier!.startsWith('.')
          ? path.relative(FEATURES, path.resolve(path.dirname(file), specifier!))
          : null;
      if (target === null || target.startsWith('..')) return [];
      const to = target.split(/[\\/]/)[0]!;
      return to === from ? [] : [{ file: path.relative(FEATURES, file), from, to, specifier: specifier! }];
    });
  });
}

describe("the web app's features", () => {
  const uses = usesAcross();

  it('use one another only through its index.ts (a test also through its testing.ts)', () => {
    const around = uses.filter(({ file, specifier, to }) => {
      if (specifier === `@/features/${to}`) return false;
      return !(/\.test\.tsx?$/.test(file) && specifier === `@/features/${to}/testing`);
    });
    expect(around).toEqual([]);
  });

  it('never use each other both ways', () => {
    const pairs = new Set(uses.map(({ from, to }) => `${from} -> ${to}`));
    const both = [...pairs].filter((pair) => {
      const [from, to] = pair.split(' -> ');
      return pairs.has(`${to} -> ${from}`);
    });
    expect(both).toEqual([]);
  });

  it('are found: the check reads the uses there are', () => {
    expect(uses.some(({ from, to }) => from === 'flow-workspace' && to === 'reviews')).toBe(true);
  });
});
