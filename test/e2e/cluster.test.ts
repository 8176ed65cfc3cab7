import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingNginx, startCluster, type TestCluster } from '../support/cluster';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { type Browser, callApi, missingBrowser, openBrowser, screenshot, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure } from './environment';

const skipReason = missingBrowser() ?? missingNginx();

describe.skipIf(skipReason !== null)(
  `the web app behind nginx on three instances${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let db: TestDatabase;
    let cluster: TestCluster;
    let browser: Browser;

    beforeAll(async () => {
      db = await createTestDatabase();
      cluster = await startCluster({ databaseUrl: db.url });
      browser = await openBrowser();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await cluster?.stop();
      await db?.drop();
    }, 120_000);

    it('runs a step, and a watching tab stays live through a restart of every instance', async () => {
      screenshotTabsOnFailure(browser, 'cluster-failed-tab');
      const page = await browser.newPage();
      // Every POST and websocket of the page carries its Origin, which each instance checks against Host.
      await signUpInBrowser(page, cluster.url, 'Cụm');
      const flow = await callApi(page, cluster.url, 'POST', '/api/flows', {
        name: 'Ba máy chủ',
        description: 'Restarted under the page',
      });
      await callApi(page, cluster.url, 'POST', '/api/steps', {
        flowId: flow.id,
        order: 1,
        name: 'Outline',
        systemPrompt: 'Write an outline about rain',
      });
      await page.goto(`${cluster.url}/workshop/${flow.id}?mode=run`);
      await page.getByTestId('run-mode').waitFor();
      await page.getByTestId('execute-step-1').click();
      const results = page.getByTestId('step-results-1');
      await expect
        .poll(() => results.textContent(), { timeout: 20_000 })
        .toContain('Write an outline about rain');

      const watcher = await browser.newPage();
      await watcher.goto(page.url());
      const live = () => watcher.getByTestId('live-indicator').getAttribute('data-live');
      await expect.poll(live).toBe('true');

      // A rolling restart: each instance stopped gracefully (its sockets told to reconnect), started again,
      // and sent requests again by nginx before the next goes.
      for (const index of [0, 1, 2]) {
        const before = (await cluster.proxied()).length;
        expect((await cluster.stopInstance(index)).code).toBe(0);
        await cluster.startInstance(index);
        const answeredByIt = async () => {
          await callApi(page, cluster.url, 'GET', '/api/auth/user');
          return (await cluster.proxied())
            .slice(before)
            .some(
              (request) => request.upstreamPorts.at(-1) === cluster.ports[index] && request.status === 200,
            );
        };
        await expect.poll(answeredByIt, { timeout: 30_000, interval: 500 }).toBe(true);
      }

      await expect.poll(live, { timeout: 20_000 }).toBe('true');
      await results.locator('[data-testid^="approve-"]').first().click();
      await expect
        .poll(
          () => watcher.getByTestId('step-results-1').getByTestId('result-status').first().textContent(),
          {
            timeout: 20_000,
          },
        )
        .toBe('Approved');
      await screenshot(watcher, 'cluster-watching-tab');
    }, 180_000);
  },
);
