import { describe, expect, it } from 'vitest';
import { CI_FUZZ_SEED, fuzzSeed } from './support/fuzz-seed';

const draw = () => 12_345;

describe("the fuzz test's seed", () => {
  it('is fixed under CI when no seed is asked for', () => {
    expect(fuzzSeed({ CI: 'true' }, draw)).toEqual({ seed: CI_FUZZ_SEED, source: 'fixed under CI' });
    expect(fuzzSeed({ CI: 'true', FUZZ_SEED: '' }, draw).seed).toBe(CI_FUZZ_SEED);
  });

  it('is drawn when asked for (FUZZ_SEED=random), under CI too, and outside CI without FUZZ_SEED', () => {
    expect(fuzzSeed({ CI: 'true', FUZZ_SEED: 'random' }, draw)).toEqual({
      seed: 12_345,
      source: 'drawn (FUZZ_SEED=random)',
    });
    expect(fuzzSeed({}, draw)).toEqual({ seed: 12_345, source: 'drawn' });
    expect(fuzzSeed({ CI: 'false' }, draw).seed).toBe(12_345);
  });

  it('replays the seed given, and refuses one that is not an integer', () => {
    expect(fuzzSeed({ CI: 'true', FUZZ_SEED: '42' }, draw)).toEqual({ seed: 42, source: 'FUZZ_SEED' });
    expect(fuzzSeed({ FUZZ_SEED: '7' }, draw).seed).toBe(7);
    expect(() => fuzzSeed({ FUZZ_SEED: 'abc' }, draw)).toThrow(/FUZZ_SEED must be an integer/);
    expect(() => fuzzSeed({ FUZZ_SEED: '1.5' }, draw)).toThrow(/FUZZ_SEED must be an integer/);
  });
});
