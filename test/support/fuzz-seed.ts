/** The seed the fuzz test runs with under CI when none is asked for: a failure there replays as it is. */
export const CI_FUZZ_SEED = 20_261_128;

/**
 * The fuzz test's seed and why it is that one: FUZZ_SEED=<n> replays that run, FUZZ_SEED=random draws one;
 * without FUZZ_SEED, CI (CI=true) takes CI_FUZZ_SEED, so a run of the same code fuzzes the same requests, and
 * anywhere else a seed is drawn. `draw` gives a random seed (0 to 2^31 - 1).
 */
export function fuzzSeed(
  env: { FUZZ_SEED?: string | undefined; CI?: string | undefined },
  draw: () => number = () => Math.floor(Math.random() * 2 ** 31),
): { seed: number; source: string } {
  const asked = env.FUZZ_SEED?.trim();
  if (asked === 'random') return { seed: draw(), source: 'drawn (FUZZ_SEED=random)' };
  if (asked) {
    const seed = Number(asked);
    if (!Number.isSafeInteger(seed)) {
      throw new Error(`FUZZ_SEED must be an integer or 'random', not '${env.FUZZ_SEED}'`);
    }
    return { seed, source: 'FUZZ_SEED' };
  }
  if (env.CI === 'true') return { seed: CI_FUZZ_SEED, source: 'fixed under CI' };
  return { seed: draw(), source: 'drawn' };
}
