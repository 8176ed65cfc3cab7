import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { answerConfirmation, callApi, missingBrowser, screenshot, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

const toastText = (page: Page) => page.getByTestId('toast').last().textContent();

describe.skipIf(skipReason !== null)(
  `the flows list in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it('greets a new user, creates, searches, exports and copies, and deletes flows', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'flows-list-failed-tab');
      await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'Lan');

      // First run: the first-flow heading, the welcome banner, the three ideas and the empty state.
      await expect
        .poll(() => page.getByTestId('flows-heading').textContent())
        .toBe('Bắt đầu tạo Workflow đầu tiên');
      await page.getByTestId('welcome-banner').waitFor();
      const ideas = page.getByTestId('first-run-banner').getByTestId('first-run-idea');
      expect(await ideas.allTextContents()).toEqual([
        expect.stringContaining('Chain of Thought'),
        expect.stringContaining('Human-in-the-loop'),
        expect.stringContaining('Prompt Library'),
      ]);
      expect(await page.getByTestId('flows-empty').textContent()).toContain('No flows created yet.');
      expect(await page.getByTestId('create-first-flow-button').textContent()).toBe('Create Your First Flow');
      expect(await page.getByTestId('ai-flow-creator-link').getAttribute('href')).toBe('/ai-flow-creator');
      expect(await page.getByTestId('flow-search').getAttribute('placeholder')).toBe('Search flows...');
      await screenshot(page, 'flows-list-01-first-run');

      // 'Tạo Flow thủ công' opens 'Tạo Flow Mới'; the created flow joins the list with a toast.
      await page.getByTestId('create-flow-button').click();
      expect(await page.getByTestId('create-flow-button').textContent()).toBe('Tạo Flow thủ công');
      await page.getByTestId('flow-name-input').fill('Blog về Trà');
      await page.getByTestId('flow-description-input').fill('Ý tưởng rồi bài viết');
      await page.getByTestId('create-flow-submit').click();
      const tea = page.getByTestId('flow-card').filter({ hasText: 'Blog về Trà' });
      await tea.waitFor();
      await expect.poll(() => toastText(page)).toContain('Flow "Blog về Trà" đã được tạo thành công');
      expect(await toastText(page)).toContain('Thành công');
      expect(await page.getByTestId('flows-heading').textContent()).toBe('Workflows');
      expect(await page.getByTestId('welcome-banner').count()).toBe(0);
      expect(await tea.getByTestId('flow-card-step-count').textContent()).toBe('0 Steps');
      expect(await tea.getByTestId('flow-card-status').textContent()).toBe('Draft');

      // Steps, and a second flow, made through the API; the list shows them after a reload.
      const teaId = (await tea.getAttribute('data-flow-id')) as string;
      const ideasStep = await callApi(page, server.url, 'POST', '/api/steps', {
        flowId: teaId,
        order: 1,
        name: 'Ý tưởng',
        systemPrompt: 'List three ideas about tea.',
        requiresUserInput: true,
      });
      await callApi(page, server.url, 'POST', '/api/steps', {
        flowId: teaId,
        order: 2,
        name: 'Chọn hướng',
        systemPrompt: 'Pick one of [[step-1]]',
        outputMode: 'multiple_choice',
        choices: ['Ngắn', 'Dài'],
        inputSources: [ideasStep.id],
      });
      await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Phân tích thị trường',
        description: 'Đối thủ và định vị',
        status: 'active',
      });
      // 'Last run' is the time of the flow's latest step run: an execution started and not run shows none.
      const execution = await callApi(page, server.url, 'POST', `/api/flows/${teaId}/execute`);
      await callApi(
        page,
        server.url,
        'POST',
        `/api/executions/${execution.id}/steps/${ideasStep.id}/execute`,
        {
          userInput: 'trà xanh',
        },
      );

      // While the list loads: a skeleton of 3 cards.
      let releaseList: () => void = () => {};
      const listHeld = new Promise<void>((resolve) => {
        releaseList = resolve;
      });
      // The list is read a page at a time: its first page, `?limit=50`.
      await page.route('**/api/flows?*', async (route) => {
        await listHeld;
        await route.continue();
      });
      await page.reload();
      await page.getByTestId('flows-loading').waitFor();
      expect(await page.getByTestId('flows-loading').locator(':scope > *').count()).toBe(3);
      await screenshot(page, 'flows-list-02-loading');
      releaseList();
      const market = page.getByTestId('flow-card').filter({ hasText: 'Phân tích thị trường' });
      await market.waitFor();
      await page.unroute('**/api/flows?*');
      expect(await tea.getByTestId('flow-card-last-run').textContent()).toMatch(/^Last run: \S/);
      expect(await market.getByTestId('flow-card-last-run').count()).toBe(0);
      expect(await tea.getByTestId('flow-card-step-count').textContent()).toBe('2 Steps');
      expect(await market.getByTestId('flow-card-status').textContent()).toBe('Active');
      expect(await tea.getByTestId('flow-card-run').getAttribute('href')).toBe(`/workshop/${teaId}?mode=run`);
      expect(await tea.getByTestId('flow-card-chat').getAttribute('href')).toBe(
        `/workshop/${teaId}?mode=chat`,
      );
      expect(await tea.getByTestId('flow-card-edit').getAttribute('href')).toBe(`/workshop/${teaId}`);

      // Search: a case-insensitive part of a name or of a description; nothing found says so.
      const names = () => page.getByTestId('flow-card-name').allTextContents();
      await page.getByTestId('flow-search').fill('TRÀ');
      await expect.poll(names).toEqual(['Blog về Trà']);
      await page.getByTestId('flow-search').fill('đối thủ');
      await expect.poll(names).toEqual(['Phân tích thị trường']);
      await page.getByTestId('flow-search').fill('cà phê');
      await expect
        .poll(() => page.getByTestId('flows-no-match').textContent())
        .toBe('No flows found matching your search.');
      await screenshot(page, 'flows-list-03-no-match');
      await page.getByTestId('flow-search').fill('');
      await expect.poll(async () => (await names()).length).toBe(2);

      // Export: the entry says 'Đang export...' while the answer is on its way, then the dialog opens.
      let releaseExport: () => void = () => {};
      const exportHeld = new Promise<void>((resolve) => {
        releaseExport = resolve;
      });
      await page.route('**/api/flows/*/export', async (route) => {
        await exportHeld;
        await route.continue();
      });
      await tea.getByTestId('flow-menu').click();
      await page.getByTestId('flow-export').click();
      await expect.poll(() => page.getByTestId('flow-export').textContent()).toBe('Đang export...');
      releaseExport();
      const dialog = page.getByTestId('export-flow-dialog');
      await dialog.waitFor();
      await page.unroute('**/api/flows/*/export');
      expect(await dialog.textContent()).toContain('Export Workflow JSON');
      expect(await dialog.getByTestId('export-flow-name').textContent()).toBe('Blog về Trà');
      expect(await dialog.textContent()).toContain('AI Creator');
      const shown = JSON.parse((await dialog.getByTestId('export-flow-json').textContent()) as string);
      const exported = await callApi(page, server.url, 'GET', `/api/flows/${teaId}/export`);
      expect(shown).toEqual(exported.workflow);
      expect(shown.steps[1]).toMatchObject({ inputSources: ['step-1'], choices: ['Ngắn', 'Dài'] });
      // Wider than the default dialog, never taller than 80% of the 900 px viewport, the JSON at most half.
      const box = await dialog.boundingBox();
      expect(box?.width).toBeGreaterThan(700);
      expect(box?.height).toBeLessThanOrEqual(720);
      const jsonHeight = await dialog
        .getByTestId('export-flow-json')
        .evaluate((pre) => getComputedStyle(pre).maxHeight);
      expect(jsonHeight).toBe('450px');
      await screenshot(page, 'flows-list-04-export');

      // Copy JSON: the clipboard holds the JSON, the button says 'Đã copy!' for 2 s, a toast confirms.
      const copy = dialog.getByTestId('export-flow-copy');
      expect(await copy.textContent()).toBe('Copy JSON');
      await copy.click();
      await expect.poll(() => copy.textContent()).toBe('Đã copy!');
      await expect.poll(() => toastText(page)).toContain('Đã copy thành công!');
      expect(await toastText(page)).toContain('Blog về Trà');
      const clipboard = await page.evaluate(() => navigator.clipboard.readText());
      expect(JSON.parse(clipboard)).toEqual(exported.workflow);
      await screenshot(page, 'flows-list-05-copied');
      await expect.poll(() => copy.textContent(), { timeout: 4_000 }).toBe('Copy JSON');
      // Escape closes the dialog, also while the toast of a copy shows (the toast opened after it).
      await copy.click();
      await expect.poll(() => copy.textContent()).toBe('Đã copy!');
      await page.getByTestId('toast').waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      // A failed export says so with the server's message.
      await page.route('**/api/flows/*/export', (route) =>
        route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"disk full"}' }),
      );
      await market.getByTestId('flow-menu').click();
      await page.getByTestId('flow-export').click();
      await expect.poll(() => toastText(page)).toContain('Lỗi export');
      expect(await toastText(page)).toContain('500: disk full');
      await page.unroute('**/api/flows/*/export');

      // Delete asks first: declined keeps the flow, a failure says so, accepted removes it.
      const confirmations: string[] = [];
      await market.getByTestId('flow-menu').click();
      await page.getByTestId('flow-delete').click();
      confirmations.push(await answerConfirmation(page, false));
      expect(await market.count()).toBe(1);
      await page.route('**/api/flows/*', (route) =>
        route.request().method() === 'DELETE'
          ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"down"}' })
          : route.fallback(),
      );
      await market.getByTestId('flow-menu').click();
      await page.getByTestId('flow-delete').click();
      confirmations.push(await answerConfirmation(page, true));
      await expect.poll(() => toastText(page)).toContain('Failed to delete flow');
      expect(await toastText(page)).toContain('Error');
      expect(await market.count()).toBe(1);
      await page.unroute('**/api/flows/*');
      await market.getByTestId('flow-menu').click();
      await page.getByTestId('flow-delete').click();
      confirmations.push(await answerConfirmation(page, true));
      await expect.poll(() => market.count()).toBe(0);
      expect(confirmations).toEqual(Array(3).fill('Are you sure you want to delete this flow?'));
      await expect.poll(() => toastText(page)).toContain('Flow deleted successfully');
      expect(await toastText(page)).toContain('Success');
      const remaining = await callApi(page, server.url, 'GET', '/api/flows');
      expect(remaining.map((flow: { name: string }) => flow.name)).toEqual(['Blog về Trà']);
      await screenshot(page, 'flows-list-06-deleted');

      // A long list is read a page at a time: 50 flows first, the next as its end scrolls into view.
      for (let i = 1; i <= 60; i++)
        await callApi(page, server.url, 'POST', '/api/flows', {
          name: `Flow số ${i}`,
          description: 'Một flow',
        });
      await page.reload();
      const cards = page.getByTestId('flow-card');
      await expect.poll(() => cards.count()).toBe(50);
      expect(await cards.first().getByTestId('flow-card-name').textContent()).toBe('Flow số 60');
      await page.getByTestId('flows-load-more').scrollIntoViewIfNeeded();
      await expect.poll(() => cards.count()).toBe(61);
      expect(await cards.last().getByTestId('flow-card-name').textContent()).toBe('Blog về Trà');
      expect(await page.getByTestId('flows-load-more').count()).toBe(0);
      await screenshot(page, 'flows-list-07-second-page');
    });
  },
);
