import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, missingBrowser, screenshot, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

const DESCRIPTION = 'Viết bài blog về trà xanh cho người mới uống trà. Giọng văn thân thiện, khoảng 800 từ.';

const phaseOf = (page: Page) => page.getByTestId('creator-phase').getAttribute('data-phase');

const contentsOf = (page: Page, type: 'system' | 'user' | 'ai') =>
  page.getByTestId(`creator-message-${type}`).getByTestId('creator-message-content').allTextContents();

async function say(page: Page, text: string) {
  await page.getByTestId('creator-input').fill(text);
  await page.getByTestId('creator-send').click();
}

/** The text of the toast on screen (one at a time). */
const toastText = (page: Page) => page.getByTestId('toast').last().textContent();

describe.skipIf(skipReason !== null)(
  `the AI flow creator in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it('improves a description, proposes, edits, proposes again, saves, and the flow is in the list', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'ai-flow-creator-failed-tab');
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'Lan');
      await page.getByTestId('ai-flow-creator-link').click();
      await page.getByTestId('creator-chat').waitFor();
      expect(await phaseOf(page)).toBe('initial');
      expect(await contentsOf(page, 'system')).toHaveLength(1);
      expect(await page.getByTestId('preview-empty').isVisible()).toBe(true);
      // Nothing to send yet: a blank line is not sent.
      expect(await page.getByTestId('creator-send').isDisabled()).toBe(true);
      await page.getByTestId('creator-input').fill('   ');
      expect(await page.getByTestId('creator-send').isDisabled()).toBe(true);

      // The first message: the AI answers with an improved description.
      await say(page, DESCRIPTION);
      await expect.poll(() => phaseOf(page)).toBe('improvement');
      expect(await contentsOf(page, 'user')).toEqual([DESCRIPTION]);
      const [improvementMessage] = await contentsOf(page, 'ai');
      expect(improvementMessage).toContain('Đây là mô tả đã được cải thiện:');
      expect(improvementMessage).toContain('Mục tiêu: Viết bài blog về trà xanh cho người mới uống trà.');
      expect(await page.getByTestId('preview-improvement').textContent()).toMatch(/^\[Offline model\]/);
      expect(await page.getByTestId('creator-input').inputValue()).toBe('');
      // Each message shows when it was posted.
      expect(await page.getByTestId('creator-message-user').locator('time').textContent()).toMatch(
        /^\d{2}:\d{2}$/,
      );
      await screenshot(page, 'ai-flow-creator-01-improvement');

      // A later message (sent with Enter): a proposal from the whole conversation.
      await page.getByTestId('creator-input').fill('Thêm một bước tối ưu SEO cho bài viết.');
      await page.getByTestId('creator-input').press('Enter');
      await expect.poll(() => phaseOf(page)).toBe('proposal');
      expect(await page.getByTestId('proposal-name').textContent()).toBe(
        'Viết bài blog về trà xanh cho người mới uống trà',
      );
      const steps = page.getByTestId('proposal-steps').locator('li');
      // The step asked for is in the proposal, after the three it starts from.
      expect(await steps.count()).toBe(4);
      expect(await page.getByTestId('proposal-step-name').allTextContents()).toEqual([
        'Phân tích yêu cầu',
        'Đề xuất phương án',
        'Kế hoạch thực hiện',
        'Tối ưu SEO cho bài viết',
      ]);
      expect(await page.getByTestId('proposal-step-mode').allTextContents()).toEqual([
        'Một kết quả',
        'Nhiều kết quả',
        'Một kết quả',
        'Một kết quả',
      ]);
      expect(await page.getByTestId('proposal-step-prompt').first().textContent()).toContain('trà xanh');
      expect((await contentsOf(page, 'ai')).at(-1)).toContain('Đề xuất workflow "Viết bài blog về trà xanh');
      expect(await page.getByTestId('proposal-confirmed').count()).toBe(0);
      const firstDescription = await page.getByTestId('proposal-description').textContent();
      expect(firstDescription).toContain('Đã thêm bước "Tối ưu SEO cho bài viết"');
      await screenshot(page, 'ai-flow-creator-02-proposal');

      // Continue editing: the AI asks what to change; the next message proposes again.
      await page.getByTestId('continue-editing').click();
      expect(await phaseOf(page)).toBe('editing');
      expect((await contentsOf(page, 'ai')).at(-1)).toContain('Bạn muốn thay đổi điều gì trong workflow?');
      expect(await page.getByTestId('confirm-save').count()).toBe(0);
      const aiMessagesBefore = (await contentsOf(page, 'ai')).length;
      await say(page, 'Nhấn mạnh lợi ích sức khoẻ và cách pha trà đúng cách.');
      await expect.poll(() => phaseOf(page)).toBe('proposal');
      expect(await contentsOf(page, 'ai')).toHaveLength(aiMessagesBefore + 1);
      expect(await contentsOf(page, 'user')).toHaveLength(3);
      expect(await steps.count()).toBe(4);
      // The new proposal is built with the change asked for.
      const secondDescription = await page.getByTestId('proposal-description').textContent();
      expect(firstDescription).not.toContain('sức khoẻ');
      expect(secondDescription).toContain('Nhấn mạnh lợi ích sức khoẻ');
      await screenshot(page, 'ai-flow-creator-03-new-proposal');

      // Confirm and save: the flow is created, the input is closed.
      await page.getByTestId('confirm-save').click();
      await expect.poll(() => phaseOf(page)).toBe('confirmed');
      await expect.poll(() => toastText(page)).toContain('Workflow đã được tạo và lưu vào danh sách!');
      expect(await page.getByTestId('proposal-confirmed').textContent()).toBe('Đã xác nhận');
      expect(await page.getByTestId('creator-input').isDisabled()).toBe(true);
      expect(await page.getByTestId('creator-send').isDisabled()).toBe(true);
      expect(await page.getByTestId('continue-editing').count()).toBe(0);
      expect((await contentsOf(page, 'system')).at(-1)).toContain('đã được lưu vào danh sách flows');
      await screenshot(page, 'ai-flow-creator-04-confirmed');

      // The flows list has it, with its four steps.
      await page.getByTestId('view-flows').click();
      await page.getByTestId('flows-heading').waitFor();
      expect(new URL(page.url()).pathname).toBe('/flows');
      const card = page
        .getByTestId('flow-card')
        .filter({ hasText: 'Viết bài blog về trà xanh cho người mới uống trà' });
      await card.waitFor();
      expect(await card.getByTestId('flow-card-step-count').textContent()).toBe('4 Steps');
      const flows = await callApi(page, server.url, 'GET', '/api/flows');
      expect(flows).toHaveLength(1);
      const created = await callApi(page, server.url, 'GET', `/api/flows/${flows[0].id}/steps`);
      expect(
        created.map((step: { name: string; outputMode: string }) => [step.name, step.outputMode]),
      ).toEqual([
        ['Phân tích yêu cầu', 'single'],
        ['Đề xuất phương án', 'multiple'],
        ['Kế hoạch thực hiện', 'single'],
        ['Tối ưu SEO cho bài viết', 'single'],
      ]);
      await screenshot(page, 'ai-flow-creator-05-flows-list');
    });

    it('shows the toast of each failed request, keeps the phase, and starts over on create new', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'ai-flow-creator-failures-tab');
      // The tab of the test before is still signed in: this one starts where it left off.
      const page = await browser.newPage();
      await page.goto(`${server.url}/ai-flow-creator`);
      await page.getByTestId('creator-chat').waitFor();

      const failing = new Set<string>();
      await page.route('**/api/ai/**', (route) => {
        const path = new URL(route.request().url()).pathname;
        return failing.has(path)
          ? route.fulfill({ status: 502, contentType: 'application/json', body: '{"message":"model down"}' })
          : route.fallback();
      });

      failing.add('/api/ai/flow-creator/improve');
      await say(page, 'Lập kế hoạch du lịch Đà Lạt 3 ngày.');
      await expect.poll(() => toastText(page)).toContain('Không thể tạo gợi ý cải thiện. Vui lòng thử lại.');
      expect(await phaseOf(page)).toBe('initial');
      failing.clear();
      await say(page, 'Lập kế hoạch du lịch Đà Lạt 3 ngày cho gia đình.');
      await expect.poll(() => phaseOf(page)).toBe('improvement');

      failing.add('/api/ai/flow-creator/proposal');
      await say(page, 'OK');
      await expect.poll(() => toastText(page)).toContain('Không thể tạo đề xuất workflow. Vui lòng thử lại.');
      expect(await phaseOf(page)).toBe('improvement');
      failing.clear();
      await say(page, 'OK, đề xuất đi.');
      await expect.poll(() => phaseOf(page)).toBe('proposal');

      const flowsBefore = (await callApi(page, server.url, 'GET', '/api/flows')).length;
      failing.add('/api/ai/create-from-json');
      await page.getByTestId('confirm-save').click();
      await expect.poll(() => toastText(page)).toContain('Không thể tạo và lưu workflow. Vui lòng thử lại.');
      expect(await phaseOf(page)).toBe('proposal');
      expect(await callApi(page, server.url, 'GET', '/api/flows')).toHaveLength(flowsBefore);
      failing.clear();
      await page.getByTestId('confirm-save').click();
      await expect.poll(() => phaseOf(page)).toBe('confirmed');
      expect(await page.getByTestId('view-flows').getAttribute('href')).toBe('/flows');

      // Create new: chat, proposal and phase back to the start.
      await page.getByTestId('create-new').click();
      expect(await phaseOf(page)).toBe('initial');
      expect(await contentsOf(page, 'user')).toEqual([]);
      expect(await contentsOf(page, 'ai')).toEqual([]);
      expect(await contentsOf(page, 'system')).toHaveLength(1);
      expect(await page.getByTestId('preview-empty').isVisible()).toBe(true);
      expect(await page.getByTestId('creator-input').isDisabled()).toBe(false);
      await screenshot(page, 'ai-flow-creator-06-create-new');
    });
  },
);
