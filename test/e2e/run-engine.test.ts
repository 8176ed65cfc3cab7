import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, missingBrowser, screenshot, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

/** One step of each output mode; the offline model answers each by its contract. */
const FOUR_MODES = [
  { name: 'Góc nhìn', systemPrompt: 'Give three angles for a post about green tea.', outputMode: 'multiple' },
  {
    name: 'Chọn hướng',
    systemPrompt: 'Pick the best angle of [[step-1]].',
    outputMode: 'multiple_choice',
    choices: ['Sức khoẻ', 'Lịch sử', 'Hương vị'],
  },
  { name: 'Bản nháp', systemPrompt: 'Draft one paragraph.', outputMode: 'loop', maxLoopIterations: 2 },
  { name: 'Tiêu đề', systemPrompt: 'Write a title for [[step-3]].', outputMode: 'single' },
];

async function createFourModeFlow(page: Page, baseUrl: string, name: string) {
  const flow = await callApi(page, baseUrl, 'POST', '/api/flows', { name, description: 'Bốn chế độ output' });
  for (const [i, step] of FOUR_MODES.entries()) {
    await callApi(page, baseUrl, 'POST', '/api/steps', { flowId: flow.id, order: i + 1, ...step });
  }
  return flow as { id: string; name: string };
}

/** Opens a step card's body when it is collapsed. */
async function expand(page: Page, order: number) {
  if ((await page.getByTestId(`step-results-${order}`).count()) === 0) {
    await page.getByTestId(`step-header-${order}`).click();
  }
  await page.getByTestId(`step-results-${order}`).waitFor();
}

describe.skipIf(skipReason !== null)(
  `the run engine in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it('runs a flow with one step of each mode by QuickRun, then approves, edits and exports', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'run-engine-failed-tab');
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'Chi');
      const flow = await createFourModeFlow(page, server.url, 'Bài về trà xanh');
      await page.goto(`${server.url}/flows/${flow.id}?mode=run`);
      await page.getByTestId('step-card-4').waitFor();

      // Execute All: QuickRun takes every pending item in order, with its 800 ms pause between runs.
      await page.getByTestId('execute-all').click();
      await expect
        .poll(() => page.getByTestId('execution-status').getAttribute('data-status'), { timeout: 30_000 })
        .toBe('completed');
      await expect
        .poll(() => page.getByTestId('quick-run-status').getAttribute('data-state'))
        .toBe('complete');
      await screenshot(page, 'run-engine-01-quickrun-complete');

      // multiple: three alternatives, none approved yet.
      await expand(page, 1);
      const angles = page.getByTestId('step-results-1').getByTestId('result-status');
      await expect.poll(() => angles.allTextContents()).toEqual(['Pending', 'Pending', 'Pending']);
      // multiple_choice: one chosen path, shown read-only as Selected.
      await expand(page, 2);
      const choice = page.getByTestId('step-results-2');
      expect(await choice.getByTestId('result-status').allTextContents()).toEqual(['Selected']);
      expect(await choice.getByTestId('result-label').textContent()).toMatch(
        /^path: (Sức khoẻ|Lịch sử|Hương vị)$/,
      );
      expect(await choice.locator('[data-testid^="approve-"]').count()).toBe(0);
      // loop: one result per iteration.
      await expand(page, 3);
      const loopLabels = page.getByTestId('step-results-3').getByTestId('result-label');
      expect(await loopLabels.allTextContents()).toEqual(['Loop 1', 'Loop 2']);

      // Approve two of the alternatives.
      const approvals = page.getByTestId('step-results-1').locator('[data-testid^="approve-"]');
      await approvals.nth(0).click();
      await approvals.nth(2).click();
      await expect.poll(() => angles.allTextContents()).toEqual(['Approved', 'Pending', 'Approved']);

      // Edit the title's text and clear its label: the label becomes step_4.
      await expand(page, 4);
      const title = page.getByTestId('step-results-4');
      await title.locator('[data-testid^="edit-result-"]').click();
      await title.getByTestId('result-label-input').fill('');
      // An emptied result cannot be saved: the editor says why.
      await title.getByTestId('result-text-input').fill('   ');
      expect(await title.getByTestId('result-save').isDisabled()).toBe(true);
      expect(await title.getByRole('alert').textContent()).toBe(
        'Kết quả không được để trống: hãy viết nội dung, hoặc xóa kết quả.',
      );
      await title.getByTestId('result-text-input').fill('Trà xanh: một tách, ba câu chuyện');
      await title.getByTestId('result-save').click();
      await expect.poll(() => title.getByTestId('result-label').textContent()).toBe('step_4');
      await expect.poll(() => title.textContent()).toContain('Trà xanh: một tách, ba câu chuyện');
      await screenshot(page, 'run-engine-02-approved-edited');

      // Export Results: a text file named for the flow, with every step and result.
      const download = page.waitForEvent('download');
      await page.getByTestId('export-results').click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^workflow-results-Bài về trà xanh-\d+\.txt$/);
      const text = await readFile((await file.path())!, 'utf8');
      expect(text).toContain('Step 1: Góc nhìn');
      expect(text).toContain('Step 4: Tiêu đề');
      expect(text).toContain('Trà xanh: một tách, ba câu chuyện');
      expect(text).toContain('Loop 2');

      // What the page shows is what the server recorded.
      const executionId = await page.getByTestId('execution-queue').getAttribute('data-execution-id');
      const view = await callApi(page, server.url, 'GET', `/api/executions/${executionId}`);
      const approved = view.results.filter((r: { approved: boolean }) => r.approved).length;
      expect(approved).toBe(3); // two alternatives and the chosen path
    });

    it('chats through the same kind of flow to its end', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'chat-failed-tab');
      const page = browser.context.pages()[0] ?? (await browser.newPage());
      const flow = await createFourModeFlow(page, server.url, 'Trò chuyện về trà');
      await page.goto(`${server.url}/flows/${flow.id}?mode=chat`);
      await page.getByTestId('chat-mode').waitFor();

      const progress = page.getByTestId('chat-progress');
      const assistant = page.getByTestId('chat-message-assistant');
      for (let sent = 1; sent <= 8; sent++) {
        if ((await progress.getAttribute('data-completed')) === (await progress.getAttribute('data-total')))
          break;
        const answersBefore = await assistant.count();
        await page.getByTestId('chat-input').fill(`Tin nhắn ${sent}`);
        await page.getByTestId('chat-input').press('Enter');
        await expect.poll(() => assistant.count(), { timeout: 15_000 }).toBeGreaterThan(answersBefore);
        await expect.poll(() => page.getByTestId('chat-message-system').count()).toBe(0);
      }
      expect(await progress.getAttribute('data-total')).toBe('4');
      expect(await progress.getAttribute('data-completed')).toBe('4');
      // 3 alternatives + the chosen path + 2 loop iterations + the title.
      expect(await assistant.count()).toBe(7);
      expect(await page.getByTestId('chat-message-user').count()).toBe(5);
      await screenshot(page, 'run-engine-03-chat-complete');

      // A reload reads the chat back from the server: the user's own messages too, each before its answers.
      const chatLines = () =>
        page
          .getByTestId('chat-messages')
          .locator('[data-testid="chat-message-user"], [data-testid="chat-message-assistant"]')
          .allTextContents();
      const beforeReload = await chatLines();
      await page.reload();
      await page.getByTestId('chat-mode').waitFor();
      await expect.poll(chatLines).toEqual(beforeReload);
      expect(await page.getByTestId('chat-message-user').allTextContents()).toEqual(
        [1, 2, 3, 4, 5].map((sent) => `Tin nhắn ${sent}`),
      );

      // Nothing left to run: the send is refused with its toast, and nothing is added.
      await page.getByTestId('chat-input').fill('Còn gì nữa?');
      await page.getByTestId('chat-send').click();
      await expect
        .poll(() => page.getByTestId('toast').allTextContents())
        .toContainEqual(expect.stringContaining('Không có bước tiếp theo'));
      expect(await page.getByTestId('chat-message-user').count()).toBe(5);

      // A flow with no step says so, rather than that it has finished every step.
      const empty = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Trống',
        description: 'Chưa có step',
      });
      await page.goto(`${server.url}/flows/${empty.id}?mode=chat`);
      await page.getByTestId('chat-mode').waitFor();
      await page.getByTestId('chat-input').fill('Xin chào');
      await page.getByTestId('chat-send').click();
      await expect
        .poll(() => page.getByTestId('toast').allTextContents())
        .toContainEqual(expect.stringContaining('Flow này chưa có step nào'));
    });
  },
);
