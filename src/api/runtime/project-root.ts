import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The directory holding package.json, looked up from this file rather than a fixed `../..`: the same code runs
 * from src/api under tsx and bundled from dist/server under node, at different depths.
 */
function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (dir === path.dirname(dir)) throw new Error(`No package.json in ${from} or above it`);
  }
}

export const PROJECT_ROOT = findProjectRoot(import.meta.dirname);
