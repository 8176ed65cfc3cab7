import { describe, expect, it } from 'vitest';
import { callApi, missingBrowser, screenshot, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

describe.skipIf(skipReason !== null)(
  `results used before anyone approved them${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it('Execute All runs on through an unapproved result, and the step card and the request log say so', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'unreviewed-failed-tab');
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'Dung');
      const flow = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Trà chiều',
        description: 'Ý tưởng rồi bản nháp',
      });
      await callApi(page, server.url, 'POST', '/api/steps', {
        flowId: flow.id,
        order: 1,
        name: 'Ý tưởng',
        systemPrompt: 'List three ideas about afternoon tea.',
      });
      await callApi(page, server.url, 'POST', '/api/steps', {
        flowId: flow.id,
        order: 2,
        name: 'Bản nháp',
        systemPrompt: 'Write a draft from [[step-1]].',
      });
      await page.goto(`${server.url}/flows/${flow.id}?mode=run`);
      await page.getByTestId('step-card-2').waitFor();

      // QuickRun does not wait for approval: step 2 runs on step 1's result while it is still Pending.
      await page.getByTestId('execute-all').click();
      await expect
        .poll(() => page.getByTestId('execution-status').getAttribute('data-status'), { timeout: 30_000 })
        .toBe('completed');
      if ((await page.getByTestId('step-results-2').count()) === 0)
        await page.getByTestId('step-header-2').click();
      const mark = page.getByTestId('step-unreviewed-2');
      await expect.poll(() => mark.textContent()).toBe('Dùng kết quả chưa duyệt: Step 1 (Branch 1)');
      // Step 1 used nothing earlier.
      if ((await page.getByTestId('step-results-1').count()) === 0)
        await page.getByTestId('step-header-1').click();
      await page.getByTestId('step-results-1').waitFor();
      expect(await page.getByTestId('step-unreviewed-1').count()).toBe(0);
      await screenshot(page, 'unreviewed-01-step-card');

      // The request log of step 2's run says the same.
      await page.getByTestId('open-logs').click();
      const entries = page.getByTestId('logs-dialog').getByTestId('log-entry');
      await expect.poll(() => entries.count()).toBe(2);
      // Newest first: step 2's request, then step 1's.
      expect(await entries.nth(0).locator('span').first().textContent()).toBe('Step 2');
      await expect
        .poll(() => entries.nth(0).getByTestId('log-unreviewed').textContent())
        .toBe('Dùng kết quả chưa duyệt: Step 1 (Branch 1)');
      expect(await entries.nth(1).getByTestId('log-unreviewed').count()).toBe(0);
      await screenshot(page, 'unreviewed-02-logs');
    });
  },
);
