import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { violationsOn } from './axe';
import { callApi, missingBrowser, screenshot, signOut, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

const FIRST_PROMPT = 'Write a short outline about green tea for beginners.';
const SECOND_PROMPT = 'Write a detailed outline about oolong tea for beginners.';

interface Version {
  version: number;
  summary: string;
  executions: { id: string }[];
}

const versionsOf = (page: Page, baseUrl: string, flowId: string) =>
  callApi(page, baseUrl, 'GET', `/api/flows/${flowId}/versions`) as Promise<Version[]>;

const toastText = (page: Page) => page.getByTestId('toast').allTextContents();

describe.skipIf(skipReason !== null)(
  `the flow history screen in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it('opens on the current version at the top of the page, however long the list', async () => {
      const { server, browser } = env;
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'Mai');
      const flow = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Dài',
        description: 'Nhiều version',
      });
      for (let order = 1; order <= 16; order++) {
        await callApi(page, server.url, 'POST', '/api/steps', {
          flowId: flow.id,
          order,
          name: `Step ${order}`,
        });
      }
      await page.goto(`${server.url}/flows/${flow.id}/versions`);
      await page.getByTestId('flow-history-title').waitFor();
      const current = page.locator('[data-testid="version-entry"][data-selected="true"]');
      await current.waitFor();
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      expect(await page.getByTestId('flow-history-title').isVisible()).toBe(true);
      await expect
        .poll(() =>
          current.evaluate((entry) => {
            const box = entry.closest('[data-version-timeline-scroll]')!.getBoundingClientRect();
            const item = entry.getBoundingClientRect();
            return item.top >= box.top && item.bottom <= box.bottom;
          }),
        )
        .toBe(true);
      // The browser is shared with the next test, which signs up anew.
      await signOut(page, server.url);
      await page.close();
    });

    it('lists the versions of an edited flow, compares two, and restores the first prompt', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'flow-history-failed-tab');
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'Lan');
      const flow = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Bài về trà',
        description: 'Dàn ý rồi bài viết',
      });
      await callApi(page, server.url, 'POST', '/api/steps', {
        flowId: flow.id,
        order: 1,
        name: 'Dàn ý',
        systemPrompt: FIRST_PROMPT,
      });
      const created = await versionsOf(page, server.url, flow.id);
      const original = created.at(-1)!.version;

      // The prompt edited in the editor is one more version.
      await page.goto(`${server.url}/flows/${flow.id}`);
      await page.getByTestId('edit-mode').waitFor();
      await page.getByTestId('edit-toggle').click();
      await page.getByTestId('step-prompt-input').fill(SECOND_PROMPT);
      await page.getByTestId('save-step').click();
      await expect
        .poll(async () => (await versionsOf(page, server.url, flow.id)).length)
        .toBe(created.length + 1);
      const edited = (await versionsOf(page, server.url, flow.id)).at(-1)!;
      expect(edited.summary).toBe('Sửa step "Dàn ý": prompt');

      // An execution started now runs the edited version.
      const execution = await callApi(page, server.url, 'POST', `/api/flows/${flow.id}/execute`, {});
      expect(execution.flowVersion).toBe(edited.version);

      // The header's Versions button opens the screen on the current version, compared with the one before.
      await page.getByTestId('open-flow-history').click();
      await page.getByTestId('flow-history-title').waitFor();
      expect(new URL(page.url()).pathname).toBe(`/flows/${flow.id}/versions`);
      const entries = page.getByTestId('version-entry');
      await expect.poll(() => entries.count()).toBe(created.length + 1);
      const current = page.locator(`[data-testid="version-entry"][data-version="${edited.version}"]`);
      expect(await current.getAttribute('data-selected')).toBe('true');
      expect(await current.getByTestId('version-current').textContent()).toBe('Hiện tại');
      expect(await current.getByTestId('version-executions').textContent()).toContain(
        '1 execution đã chạy version này',
      );
      expect(await current.getByTestId('version-summary').textContent()).toBe(edited.summary);
      // Every version is told in the UI's Vietnamese, the creation too.
      const first = page.locator(`[data-testid="version-entry"][data-version="${created[0]!.version}"]`);
      expect(await first.getByTestId('version-summary').textContent()).toBe('Tạo thủ công, gồm 0 step');
      expect(await current.getByTestId('version-meta').textContent()).toMatch(/^Lan · /);
      expect(await current.getByTestId('version-execution').getAttribute('data-execution-id')).toBe(
        execution.id,
      );
      expect(await page.getByTestId('flow-history-flow-name').textContent()).toBe('Bài về trà');

      const comparison = page.getByTestId('version-comparison');
      await comparison.waitFor();
      expect(await comparison.getAttribute('data-from')).toBe(String(original));
      expect(await comparison.getAttribute('data-to')).toBe(String(edited.version));
      const step = comparison.getByTestId('version-step');
      expect(await step.getAttribute('data-kind')).toBe('changed');
      expect(await step.getByTestId('version-step-kind').textContent()).toBe('Đã sửa');
      const diff = step.getByTestId('history-diff');
      const removed = (await diff.locator('[data-kind="removed"]').allTextContents()).join(' ');
      const added = (await diff.locator('[data-kind="added"]').allTextContents()).join(' ');
      expect(removed).toContain('short');
      expect(removed).toContain('green');
      expect(added).toContain('detailed');
      expect(added).toContain('oolong');
      expect(await diff.locator('[data-kind="same"]').allTextContents()).toContainEqual(
        expect.stringContaining('for beginners.'),
      );
      await page.waitForLoadState('networkidle');
      expect(await violationsOn(page)).toEqual([]);
      await screenshot(page, 'flow-history-01-timeline-compare');

      // Any two versions: from the empty flow to the edited one, the step was added.
      await page.getByTestId('compare-from').selectOption(String(created[0]!.version));
      await expect.poll(() => comparison.getAttribute('data-from')).toBe(String(created[0]!.version));
      expect(await step.getAttribute('data-kind')).toBe('added');
      expect(await step.getByTestId('version-step-kind').textContent()).toBe('Thêm mới');
      expect(new URL(page.url()).searchParams.get('base')).toBe(String(created[0]!.version));

      // The execution's history names the version it ran, and links back to it.
      await current.getByTestId('version-execution').click();
      const dialog = page.getByTestId('history-dialog');
      await dialog.waitFor();
      const started = dialog.getByTestId('history-entry-flow-version');
      await expect.poll(() => started.first().textContent()).toBe(`Flow version ${edited.version}`);
      expect(await dialog.getByTestId('history-state').getByTestId('flow-version-link').textContent()).toBe(
        `Flow version ${edited.version}`,
      );
      await screenshot(page, 'flow-history-02-execution-history');
      await started.first().getByTestId('flow-version-link').click();
      await expect.poll(() => dialog.count()).toBe(0);
      expect(new URL(page.url()).searchParams.get('version')).toBe(String(edited.version));

      // Restore the version before the edit, after the confirmation.
      await page
        .locator(`[data-testid="version-entry"][data-version="${original}"] [data-testid="version-select"]`)
        .click();
      await expect.poll(() => page.getByTestId('version-title').textContent()).toBe(`Version ${original}`);
      await page.getByTestId('restore-version').click();
      const confirm = page.getByTestId('restore-dialog');
      await confirm.waitFor();
      expect(await confirm.textContent()).toContain(`Khôi phục Version ${original}?`);
      await screenshot(page, 'flow-history-03-restore-dialog');
      await page.getByTestId('restore-confirm').click();
      await expect.poll(() => confirm.count()).toBe(0);
      const restored = (await versionsOf(page, server.url, flow.id)).at(-1)!;
      expect(restored.summary).toBe(`Khôi phục Version ${original}`);
      await expect
        .poll(() => toastText(page))
        .toEqual([
          `Đã khôi phụcFlow đã trở lại như Version ${original}; lần khôi phục này là Version ${restored.version}.`,
        ]);
      expect(await page.getByTestId('toast').getAttribute('data-variant')).toBe('success');
      await expect
        .poll(() => page.getByTestId('version-title').textContent())
        .toBe(`Version ${restored.version}`);
      await expect.poll(() => entries.count()).toBe(created.length + 2);
      expect(await page.getByTestId('restore-version').count()).toBe(0);
      await expect
        .poll(() => diff.locator('[data-kind="added"]').allTextContents())
        .toContainEqual(expect.stringContaining('green'));
      await screenshot(page, 'flow-history-04-restored');

      // Back in the editor, the step has its first prompt again.
      await page.getByTestId('flow-history-back').click();
      await page.getByTestId('edit-mode').waitFor();
      await expect.poll(() => page.getByTestId('step-prompt-input').inputValue()).toBe(FIRST_PROMPT);
      const steps = await callApi(page, server.url, 'GET', `/api/flows/${flow.id}/steps`);
      expect(steps.map((s: { systemPrompt: string }) => s.systemPrompt)).toEqual([FIRST_PROMPT]);
    });

    it('opens a version named in the address, and says when a flow is not there', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'flow-history-address-failed-tab');
      const page = await browser.newPage();
      const flow = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Một flow',
        description: 'Chưa có step',
      });
      const [first] = await versionsOf(page, server.url, flow.id);
      await page.goto(`${server.url}/flows/${flow.id}/versions?version=${first!.version}`);
      await page.getByTestId('version-comparison').waitFor();
      expect(await page.getByTestId('version-title').textContent()).toBe(`Version ${first!.version}`);
      expect(await page.getByTestId('version-comparison-note').textContent()).toBe(
        `Cùng một version: đây là nội dung của Version ${first!.version}.`,
      );

      await page.goto(`${server.url}/flows/00000000-0000-4000-8000-000000000000/versions`);
      await page.getByTestId('flow-not-found').waitFor();
    });
  },
);
