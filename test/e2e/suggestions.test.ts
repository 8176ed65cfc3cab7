import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, missingBrowser, screenshot, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

const STEPS = [
  { name: 'Nghiên cứu', systemPrompt: 'List five facts about green tea for a beginner audience.' },
  { name: 'Dàn ý', systemPrompt: 'Write an outline for a short article about green tea.' },
];

/** A two-step flow whose first step has run once, so its request log has an answer. */
async function createFlowWithARun(page: Page, baseUrl: string, name: string) {
  const flow = await callApi(page, baseUrl, 'POST', '/api/flows', { name, description: 'Bài viết về trà' });
  const steps = [];
  for (const [i, step] of STEPS.entries()) {
    steps.push(
      await callApi(page, baseUrl, 'POST', '/api/steps', { flowId: flow.id, order: i + 1, ...step }),
    );
  }
  const execution = await callApi(page, baseUrl, 'POST', `/api/flows/${flow.id}/execute`);
  await callApi(page, baseUrl, 'POST', `/api/executions/${execution.id}/steps/${steps[0].id}/execute`, {
    userInput: '',
  });
  return flow as { id: string; name: string };
}

describe.skipIf(skipReason !== null)(
  `AI suggestions in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it('opens AI Suggestions, generates per-step suggestions with the offline model, clears them, and opens from chat mode', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'suggestions-failed-tab');
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'Lan');
      const flow = await createFlowWithARun(page, server.url, 'Trà xanh');
      await page.goto(`${server.url}/flows/${flow.id}`);

      await page.getByTestId('open-suggestions').click();
      const dialog = page.getByTestId('suggestions-dialog');
      await dialog.getByTestId('suggestions-empty').waitFor();
      expect(await dialog.getByTestId('clear-suggestions').isDisabled()).toBe(true);

      await dialog.getByTestId('generate-suggestions').click();
      const record = dialog.getByTestId('suggestion-record');
      await record.waitFor();
      const items = record.getByTestId('step-suggestion');
      await expect.poll(() => items.count()).toBe(2);
      const [first, second] = await items.allTextContents();
      expect(first).toContain('Step 1: Nghiên cứu');
      expect(first).toContain('[Offline model]');
      // The outline refers to nothing earlier: the suggestion names the reference to add.
      expect(second).toContain('Step 2: Dàn ý');
      expect(second).toContain('[[step-1]]');
      const strategy = record.getByTestId('strategic-recommendation');
      // Rendered as markdown: the flow's name in bold, the history as a list.
      await expect.poll(() => strategy.locator('strong').first().textContent()).toBe('Trà xanh');
      expect(await strategy.textContent()).toContain('1 lần gọi AI (0 thất bại)');
      expect(await record.getByTestId('suggestion-time').textContent()).toMatch(/\d{1,2}\/\d{1,2}\/\d{4}/);
      await screenshot(page, 'suggestions-01-generated');

      await dialog.getByTestId('clear-suggestions').click();
      await dialog.getByTestId('suggestions-empty').waitFor();
      expect(await dialog.getByTestId('suggestion-record').count()).toBe(0);
      expect(await callApi(page, server.url, 'GET', `/api/flows/${flow.id}/suggestions`)).toEqual([]);

      // Chat mode has no header: its settings dialog opens the same dialog.
      await callApi(page, server.url, 'POST', `/api/flows/${flow.id}/suggestions`);
      await page.goto(`${server.url}/flows/${flow.id}?mode=chat`);
      await page.getByTestId('chat-settings').click();
      await page.getByTestId('chat-settings-suggestions').click();
      await dialog.getByTestId('suggestion-record').waitFor();
      expect(await dialog.getByTestId('step-suggestion').count()).toBe(2);
      await screenshot(page, 'suggestions-02-from-chat');
    });
  },
);
