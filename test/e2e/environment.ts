import { afterAll, beforeAll, onTestFailed } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { type ServerProcess, startServerProcess } from '../support/server-process';
import { type Browser, openBrowser, screenshot } from './browser';

export interface BrowserEnvironment {
  server: ServerProcess;
  browser: Browser;
  /** The server's database, for a test that changes it behind the server's back. */
  database: TestDatabase;
}

/**
 * For a describe block: a database of its own, the server as its own process on it, and a fresh headless
 * Chromium; `env` runs first and gives the server's extra environment (a fake model server, say).
 */
export function useServerAndBrowser(
  env: () => Promise<Record<string, string>> = async () => ({}),
): BrowserEnvironment {
  let db: TestDatabase | undefined;
  const environment = {} as BrowserEnvironment;
  beforeAll(async () => {
    db = await createTestDatabase();
    environment.database = db;
    environment.server = await startServerProcess(db.url, await env());
    environment.browser = await openBrowser();
  });
  afterAll(async () => {
    await environment.browser?.close();
    await environment.server?.stop();
    await db?.drop();
  });
  return environment;
}

/** Inside a test: when it fails, a screenshot of every open tab, named with `prefix`. */
export function screenshotTabsOnFailure(browser: Browser, prefix: string) {
  onTestFailed(async () => {
    for (const [i, open] of browser.context.pages().entries()) await screenshot(open, `${prefix}-${i + 1}`);
  });
}
