import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// One config for the SPA build (root src/web -> dist/web) and for the test projects.
export default defineConfig({
  root: 'src/web',
  plugins: [react(), tailwindcss()],
  // `@/x` is src/web/x (as in tsconfig.json's paths), for the build and every test project alike.
  resolve: { alias: [{ find: /^@\//, replacement: fileURLToPath(new URL('./src/web/', import.meta.url)) }] },
  build: { outDir: '../../dist/web', emptyOutDir: true },
  server: { proxy: { '/api': { target: 'http://127.0.0.1:5000', ws: true } } },
  test: {
    root: '.',
    // Vitest's default in a run is one worker less than the cores: a single worker on a 2-core machine, and the
    // suite then runs file after file. The integration and browser files spend most of their time waiting on
    // PostgreSQL, on sockets and on the browser, so one worker more than the cores keeps both busy. Each browser
    // file has its own database, server process and Chromium, so they share the workers with the rest.
    maxWorkers: availableParallelism() + 1,
    // `expect.poll` waits for what the code emits; its 1 s default is shorter than a busy machine takes to
    // carry an event between processes. A condition met sooner ends the wait sooner.
    expect: { poll: { timeout: 15_000 } },
    // Under CI a JSON report too, read by .ci/summary.mjs (TEST_REPORT_FILE names it for a second run).
    reporters: process.env.CI
      ? ['default', ['json', { outputFile: process.env.TEST_REPORT_FILE ?? 'test-results/report.json' }]]
      : ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          root: '.',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
          environment: 'node',
          setupFiles: ['src/web/test-setup.ts'],
          // A bound on a test that hangs, not on its speed: with the browser files beside them on a busy
          // machine, a test whose waits last up to 15 s (test-setup.ts) must not be cut at the default 5 s.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          root: '.',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'test/redis/**'],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          root: '.',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 90_000,
        },
      },
      // Needs a Redis on 127.0.0.1:6379, which `npm test` must not: defined only when named, `--project redis`.
      ...(namesProject('redis')
        ? [
            {
              extends: true as const,
              test: {
                name: 'redis',
                root: '.',
                include: ['test/redis/**/*.test.ts'],
                globalSetup: ['test/support/global-setup.ts'],
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
    ],
  },
});

/** Whether the command line names the test project: `--project name` or `--project=name`. */
function namesProject(name: string): boolean {
  return process.argv.some(
    (arg, i) => arg === `--project=${name}` || (arg === '--project' && process.argv[i + 1] === name),
  );
}
