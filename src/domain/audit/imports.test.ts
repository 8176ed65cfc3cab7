import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('the audit library (runs in a browser as well as in Node)', () => {
  it('imports nothing but its own folder and @noble', () => {
    const dir = import.meta.dirname;
    const outside = readdirSync(dir)
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .flatMap((name) =>
        [
          ...readFileSync(path.join(dir, name), 'utf8').matchAll(
            /(?:import|export)\s[^'"]*?from\s+'([^']+)'/g,
          ),
        ].map((m) => `${name}: ${m[1]}`),
      )
      .filter((entry) => !/: (\.\/[\w-]+|@noble\/(hashes|curves)\/[\w/-]+\.js)$/.test(entry));
    expect(outside).toEqual([]);
  });
});
