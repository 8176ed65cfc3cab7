import { describe, expect, it } from 'vitest';
import { callApi, missingBrowser, screenshot, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

describe.skipIf(skipReason !== null)(
  `two tabs of one flow${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it('keeps a second tab true: it moves to the execution the first started, and shows steps added or renamed', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'two-tabs-failed');
      const first = await browser.newPage();
      await signUpInBrowser(first, server.url, 'Hà');
      const flow = await callApi(first, server.url, 'POST', '/api/flows', {
        name: 'Hai tab',
        description: 'Một flow mở ở hai tab',
      });
      const step = await callApi(first, server.url, 'POST', '/api/steps', {
        flowId: flow.id,
        order: 1,
        name: 'Ý tưởng',
        systemPrompt: 'List three ideas about tea.',
      });
      const second = await browser.context.newPage();
      for (const page of [first, second]) {
        await page.goto(`${server.url}/flows/${flow.id}?mode=run`);
        await page.getByTestId('step-card-1').waitFor();
      }
      // Neither has an execution yet; the first tab starts one with its first Execute.
      const before = await second.locator('[data-testid="execution-queue"][data-execution-id]').count();
      expect(before).toBe(0);
      await first.getByTestId('execute-step-1').click();
      const queue = first.getByTestId('execution-queue');
      await queue.waitFor();
      const started = await queue.getAttribute('data-execution-id');
      await expect
        .poll(() => second.getByTestId('execution-queue').getAttribute('data-execution-id'), {
          timeout: 15_000,
        })
        .toBe(started);
      await expect
        .poll(() => second.getByTestId('step-results-1').textContent())
        .toContain('[Offline model]');

      // A step renamed and a step added through the first tab (here, its API calls) reach the second.
      const renamed = await first.request.put(`${server.url}/api/steps/${step.id}`, {
        headers: { origin: server.url },
        data: { name: 'Ý tưởng mới' },
      });
      expect(renamed.status()).toBe(200);
      await callApi(first, server.url, 'POST', '/api/steps', {
        flowId: flow.id,
        order: 2,
        name: 'Bài viết',
        systemPrompt: 'Write from [[step-1]]',
      });
      await expect.poll(() => second.getByTestId('step-header-1').textContent()).toContain('Ý tưởng mới');
      await second.getByTestId('step-card-2').waitFor();
      await screenshot(second, 'two-tabs-second-tab');
    });
  },
);
