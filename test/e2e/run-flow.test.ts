import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callApi, missingBrowser, screenshot, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

describe.skipIf(skipReason !== null)(
  `run a flow in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    async function addStep(page: Page, order: number, name: string, prompt: string) {
      const before = await page.locator('[data-testid^="step-card-"]').count();
      await page.getByTestId(before === 0 ? 'create-first-step' : 'add-step-button').click();
      const card = page.getByTestId(`step-card-${order}`);
      await card.waitFor();
      if ((await page.getByTestId(`prompt-toggle-${order}`).count()) === 0) {
        await page.getByTestId(`step-header-${order}`).click();
      }
      await page.getByTestId(`prompt-toggle-${order}`).click();
      await page.getByTestId(`prompt-edit-${order}`).click();
      await page.getByTestId(`prompt-textarea-${order}`).fill(prompt);
      await page.getByTestId(`prompt-save-${order}`).click();
      await expect.poll(() => page.getByTestId(`prompt-text-${order}`).textContent()).toContain(prompt);
      return name;
    }

    it('signs up, creates a two-step flow, runs it step by step with approval, and sees results live', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'failed-tab');
      const page = await browser.newPage();
      await page.goto(server.url);
      await page.getByTestId('landing-page').waitFor();
      await screenshot(page, '01-landing');

      // Sign up on the server-rendered sign-in page.
      await signUpInBrowser(page, server.url, 'An');
      await screenshot(page, '02-flows-empty');

      // Create the flow with 'Tạo Flow Mới'.
      await page.getByTestId('create-flow-button').click();
      await page.getByTestId('flow-name-input').fill('Blog về trà');
      await page.getByTestId('flow-description-input').fill('Ý tưởng rồi bài viết');
      await page.getByTestId('create-flow-submit').click();
      const card = page.getByTestId('flow-card').filter({ hasText: 'Blog về trà' });
      await card.waitFor();
      await screenshot(page, '03-flow-created');
      await card.getByTestId('flow-card-run').click();
      await page.getByTestId('run-mode').waitFor();
      const workspaceUrl = page.url();

      await addStep(page, 1, 'Ideas', 'List three ideas about tea.');
      await addStep(page, 2, 'Draft', 'Write a short post from these ideas: [[step-1]]');
      await screenshot(page, '04-two-steps');

      // A double click is one run: the button takes the first click and drops the second at once.
      await page.getByTestId('execute-step-1').dblclick();
      const firstResults = page.getByTestId('step-results-1');
      await expect
        .poll(() => firstResults.textContent(), { timeout: 20_000 })
        .toContain('List three ideas about tea');
      await expect
        .poll(() => firstResults.getByTestId('result-status').first().textContent())
        .toBe('Pending');
      await screenshot(page, '05-step-1-result');

      // A second tab on the same flow only watches: what changes in it arrives over the websocket.
      const watcher = await browser.newPage();
      await watcher.goto(workspaceUrl);
      await expect.poll(() => watcher.getByTestId('live-indicator').getAttribute('data-live')).toBe('true');
      const watchedFirst = watcher.getByTestId('step-results-1');
      await expect
        .poll(() => watchedFirst.getByTestId('result-status').first().textContent())
        .toBe('Pending');

      await firstResults.locator('[data-testid^="approve-"]').first().click();
      await expect
        .poll(() => watchedFirst.getByTestId('result-status').first().textContent())
        .toBe('Approved');

      if ((await page.getByTestId('execute-step-2').count()) === 0)
        // Opened from the step list: the stop toast may still cover the card's header.
        await page.getByTestId('step-list-row-2').locator('button').first().click();
      await page.getByTestId('execute-step-2').click();
      // The second step's prompt carried the first result in place of [[step-1]]; the offline model
      // echoes its task, so the first step's words reach the second result.
      await expect
        .poll(() => watcher.getByTestId('step-status-2').getAttribute('data-status'))
        .toBe('completed');
      if ((await watcher.getByTestId('step-results-2').count()) === 0)
        await watcher.getByTestId('step-header-2').click();
      await expect
        .poll(() => watcher.getByTestId('step-results-2').textContent(), { timeout: 20_000 })
        .toContain('List three ideas about tea');
      await expect
        .poll(() => page.getByTestId('step-results-2').textContent())
        .toContain('Write a short post');
      await screenshot(page, '06-step-2-result');
      await screenshot(watcher, '07-watching-tab');

      const executionId = await page.getByTestId('execution-queue').getAttribute('data-execution-id');
      const view = await (await page.request.get(`${server.url}/api/executions/${executionId}`)).json();
      expect(view.results.map((r: { approved: boolean }) => r.approved)).toEqual([true, false]);
      expect(view.runs).toHaveLength(2);

      // The request log shows the prompt step 2 was sent: [[step-1]] replaced by the approved result.
      await page.getByTestId('open-logs').click();
      const entries = page.getByTestId('logs-dialog').getByTestId('log-entry');
      await expect.poll(() => entries.count()).toBe(2);
      const secondPrompt = entries.filter({ hasText: 'Step 2' }).locator('pre').first();
      await expect
        .poll(() => secondPrompt.textContent())
        .toContain('[Offline model] List three ideas about tea.');
      expect(await secondPrompt.textContent()).not.toContain('[[step-1]]');
      await screenshot(page, '08-logs');
      // Event and command ids are for developers: behind a toggle, shown when asked for.
      const reference = page.getByTestId('log-started-event').first();
      expect(await reference.getByTestId('log-command-id').isVisible()).toBe(false);
      await reference.locator('summary').click();
      expect(await reference.getByTestId('log-command-id').isVisible()).toBe(true);

      // A deleted result is a rejected idea every later prompt is told of; the context clears them, asking first.
      const rejected = view.results.find((r: { approved: boolean }) => !r.approved);
      const deleted = await page.request.delete(`${server.url}/api/step-results/${rejected.id}`, {
        headers: { origin: server.url },
      });
      expect(deleted.status()).toBe(204);
      const logs = page.getByTestId('logs-dialog');
      await logs.getByTestId('open-context').click();
      const context = page.getByTestId('context-dialog');
      await context.getByTestId('context-tab-rejected').click();
      await expect.poll(() => context.getByTestId('context-rejected').textContent()).toContain('Step 2');
      await context.getByTestId('clear-rejected').click();
      await screenshot(page, '09-clear-rejected-asks');
      await context.getByTestId('clear-rejected-confirm').click();
      await context.getByText('Chưa có rejected idea nào', { exact: false }).waitFor();
      await page.keyboard.press('Escape');

      // Clearing the logs asks too: "Hủy" keeps them, "Xóa" clears them.
      await logs.getByTestId('clear-logs').click();
      await logs.getByTestId('clear-logs-cancel').click();
      expect(await entries.count()).toBe(2);
      await logs.getByTestId('clear-logs').click();
      await logs.getByTestId('clear-logs-confirm').click();
      await expect.poll(() => entries.count()).toBe(0);
    });
  },
);

describe.skipIf(skipReason !== null)(
  `the run workspace in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();
    beforeAll(async () => {
      await signUpInBrowser(await env.browser.newPage(), env.server.url, 'Bình');
    });

    it('offers no run on a stopped execution, says why, and shows the step as stopped until a reset', async () => {
      const { server, browser } = env;
      const page = await browser.newPage();
      const flow = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Dừng lại',
        description: 'x',
      });
      for (const [i, name] of ['Ideas', 'Draft'].entries()) {
        await callApi(page, server.url, 'POST', '/api/steps', {
          flowId: flow.id,
          order: i + 1,
          name,
          systemPrompt: name,
        });
      }
      await page.goto(`${server.url}/flows/${flow.id}?mode=run`);
      await page.getByTestId('run-mode').waitFor();
      await page.getByTestId('execute-step-1').click();
      await page.getByTestId('step-results-1').locator('[data-testid^="approve-"]').first().waitFor();
      await page.getByTestId('stop-execution').click();
      await expect.poll(() => page.getByTestId('execution-status').textContent()).toBe('Stopped');

      expect(await page.getByTestId('execute-step-1').isDisabled()).toBe(true);
      expect(await page.getByTestId('step-list-run-2').isDisabled()).toBe(true);
      expect(await page.getByTestId('step-stopped-1').textContent()).toBe(
        'Execution đã dừng. Hãy reset trước khi chạy lại.',
      );
      // Opened from the step list: the stop toast may still cover the card's header.
      await page.getByTestId('step-list-row-2').locator('button').first().click();
      expect(await page.getByTestId('execute-step-2').isDisabled()).toBe(true);
      expect(await page.getByTestId('step-status-2').getAttribute('data-status')).toBe('stopped');
      expect(await page.getByTestId('step-status-2').locator('.animate-spin').count()).toBe(0);
      await screenshot(page, 'run-stopped');

      await page.getByTestId('reset-execution').click();
      await expect.poll(() => page.getByTestId('execute-step-1').isDisabled()).toBe(false);
      expect(await page.getByTestId('step-stopped-1').count()).toBe(0);
    });

    it('keeps the mode in the URL: a reload stays in it, back and forward move between modes', async () => {
      const { server, browser } = env;
      const page = await browser.newPage();
      const flow = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Chế độ',
        description: 'x',
      });
      await page.goto(`${server.url}/flows/${flow.id}?mode=run`);
      await page.getByTestId('run-mode').waitFor();
      await page.getByTestId('mode-chat').click();
      await page.getByTestId('chat-mode').waitFor();
      expect(new URL(page.url()).searchParams.get('mode')).toBe('chat');
      await page.reload();
      await page.getByTestId('chat-mode').waitFor();
      await page.goBack();
      await page.getByTestId('run-mode').waitFor();
      expect(new URL(page.url()).searchParams.get('mode')).toBe('run');
      await page.getByTestId('mode-edit').click();
      await page.getByTestId('edit-mode').waitFor();
      expect(new URL(page.url()).searchParams.get('mode')).toBe('edit');
      await page.goBack();
      await page.getByTestId('run-mode').waitFor();
      await page.goForward();
      await page.getByTestId('edit-mode').waitFor();
    });

    it("opens chat mode on a flow run before with each step's current result, not every old version", async () => {
      const { server, browser } = env;
      const page = await browser.newPage();
      const flow = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Trò chuyện',
        description: 'x',
      });
      const step = await callApi(page, server.url, 'POST', '/api/steps', {
        flowId: flow.id,
        order: 1,
        name: 'Ideas',
        systemPrompt: 'Ideas',
      });
      const execution = await callApi(page, server.url, 'POST', `/api/flows/${flow.id}/execute`, {});
      for (const userInput of ['một', 'hai', 'ba']) {
        await callApi(page, server.url, 'POST', `/api/executions/${execution.id}/steps/${step.id}/execute`, {
          userInput,
        });
      }
      await page.goto(`${server.url}/flows/${flow.id}?mode=chat`);
      await page.getByTestId('chat-mode').waitFor();
      const answers = page.getByTestId('chat-message-assistant');
      await answers.first().waitFor();
      expect(await answers.count()).toBe(1);
      // With the message that asked for it, not those of the older versions.
      expect(await page.getByTestId('chat-message-user').allTextContents()).toEqual(['ba']);
      await screenshot(page, 'chat-opened-on-earlier-run');
    });

    it('shows a size limit as a toast naming it: an input past MAX_TEXT_CHARS is refused, nothing runs', async () => {
      const { server, browser } = env;
      const page = await browser.newPage();
      const flow = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Quá dài',
        description: 'x',
      });
      await callApi(page, server.url, 'POST', '/api/steps', {
        flowId: flow.id,
        order: 1,
        name: 'A',
        systemPrompt: 'a',
      });
      await page.goto(`${server.url}/flows/${flow.id}?mode=run`);
      await page.getByTestId('step-input-1').fill('d'.repeat(500_001));
      await page.getByTestId('execute-step-1').click();
      await expect
        .poll(() => page.getByTestId('toast').allTextContents())
        .toContainEqual(
          expect.stringContaining('userInput sẽ dài 500,001 ký tự; giới hạn (MAX_TEXT_CHARS) là 500,000.'),
        );
      await screenshot(page, 'run-too-large');
      expect(await page.getByTestId('step-results-1').count()).toBe(0);
    });
  },
);
