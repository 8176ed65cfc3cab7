import { describe, expect, it } from 'vitest';
import { callApi, missingBrowser, screenshot, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

describe.skipIf(skipReason !== null)(
  `a step waiting for input, and buttons that say why they are disabled${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it('shows the step that waits for input as waiting, with its Input box and what Stop and Execute do', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'waiting-input-failed');
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'Chi');

      // Tạo Flow without a name and a description says what is missing.
      await page.getByTestId('create-flow-button').click();
      const submit = page.getByTestId('create-flow-submit');
      expect(await submit.isDisabled()).toBe(true);
      expect(await submit.getAttribute('title')).toBe('Nhập tên và mô tả flow trước.');
      // It keeps its pointer events, so the tooltip shows on hover.
      expect(await submit.evaluate((button) => getComputedStyle(button).pointerEvents)).not.toBe('none');
      await page.getByTestId('create-flow-cancel').click();

      const flow = await callApi(page, server.url, 'POST', '/api/ai/create-from-json', {
        workflowJSON: {
          name: 'Thư xin việc',
          description: 'Một thư theo thông tin của bạn',
          steps: [
            { name: 'Dàn ý', order: 1, systemPrompt: 'Viết dàn ý một thư xin việc.', outputMode: 'single' },
            {
              name: 'Thông tin',
              order: 2,
              systemPrompt: 'Viết thư từ dàn ý [[step-1]] với thông tin người dùng.',
              outputMode: 'single',
              requiresUserInput: true,
              inputSources: ['step-1'],
            },
          ],
        },
      });
      await page.goto(`${server.url}/flows/${flow.id}?mode=run`);
      await page.getByTestId('execute-step-1').click();
      await page
        .getByTestId('step-results-1')
        .getByTestId('result-status')
        .first()
        .waitFor({ timeout: 20_000 });

      // Step 2 is where the execution stands, and it waits for the user: no spinner, its Input box open.
      const status = page.getByTestId('step-status-2');
      await expect.poll(() => status.getAttribute('data-status')).toBe('input');
      expect(await page.getByTestId('step-card-2').locator('.animate-spin').count()).toBe(0);
      expect(await status.locator('.lucide-loader-circle, .lucide-loader-2').count()).toBe(0);
      const prompt = page.getByTestId('step-waiting-input-2');
      expect(await prompt.textContent()).toContain('đang chờ input của bạn');
      const input = page.getByTestId('step-input-2');
      expect(await input.isVisible()).toBe(true);
      expect(await input.getAttribute('aria-describedby')).toBe(await prompt.getAttribute('id'));
      expect(await page.getByTestId('step-list-row-2').getAttribute('data-status')).toBe('input');
      expect(await page.getByTestId('execution-status').getAttribute('data-status')).toBe('waiting');

      // Execute says what is missing; Stop says that it ends the execution, since nothing runs.
      const execute = page.getByTestId('execute-step-2');
      expect(await execute.isDisabled()).toBe(true);
      const needsInput = 'Step này yêu cầu input: nhập input vào ô Input trước khi execute.';
      expect(await execute.getAttribute('title')).toBe(needsInput);
      expect(await page.getByTestId('step-list-run-2').getAttribute('title')).toBe(needsInput);
      const stop = page.getByTestId('stop-execution');
      expect(await stop.isDisabled()).toBe(false);
      expect(await stop.getAttribute('title')).toContain('Stop sẽ kết thúc execution này');
      await screenshot(page, 'waiting-input-01');

      // Answered: the step runs and the execution goes on.
      await input.fill('Tên: Chi, vị trí: kỹ sư phần mềm');
      expect(await execute.getAttribute('title')).toBeNull();
      await execute.click();
      await page
        .getByTestId('step-results-2')
        .getByTestId('result-status')
        .first()
        .waitFor({ timeout: 20_000 });
      await expect.poll(() => status.getAttribute('data-status')).toBe('completed');
      expect(await page.getByTestId('step-waiting-input-2').count()).toBe(0);

      // A completed execution has nothing to stop, and Stop says so.
      await expect
        .poll(() => stop.getAttribute('title'))
        .toBe('Execution không còn chạy: không có gì để dừng.');
      expect(await stop.isDisabled()).toBe(true);

      // In chat mode, Send says a message is missing while the input line is blank.
      await page.goto(`${server.url}/flows/${flow.id}?mode=chat`);
      const send = page.getByTestId('chat-send');
      await send.waitFor();
      expect(await send.getAttribute('title')).toBe('Nhập tin nhắn trước.');
      await page.getByTestId('chat-input').fill('Viết ngắn hơn');
      expect(await send.getAttribute('title')).toBeNull();
      await page.goto(`${server.url}/flows`);

      await page.getByTestId('logout-button').click();
      await page.getByTestId('landing-page').waitFor();
    });
  },
);
