import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { violationsOn } from './axe';
import { callApi, missingBrowser, screenshot, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

const STEPS = [
  { name: 'Ý tưởng', systemPrompt: 'Give one idea for a post about tea.' },
  { name: 'Bản nháp', systemPrompt: 'Draft a paragraph on [[step-1]].' },
  { name: 'Tiêu đề', systemPrompt: 'Write a title for [[step-2]].' },
];

interface Result {
  id: string;
  stepId: string;
  stepOrder: number;
  result: string;
}

/** Execute All from the run screen, then waits until the execution has completed. */
async function executeAll(page: Page) {
  await page.getByTestId('execute-all').click();
  await expect
    .poll(() => page.getByTestId('execution-status').getAttribute('data-status'), { timeout: 30_000 })
    .toBe('completed');
  await expect.poll(() => page.getByTestId('quick-run-status').getAttribute('data-state')).toBe('complete');
}

async function expand(page: Page, order: number) {
  if ((await page.getByTestId(`step-results-${order}`).count()) === 0) {
    await page.getByTestId(`step-header-${order}`).click();
  }
  await page.getByTestId(`step-results-${order}`).waitFor();
}

describe.skipIf(skipReason !== null)(
  `execution history in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it('steps through a run, an approval, an edit, a reset and a second run', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'history-failed-tab');
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'An');
      const flow = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Bài về trà',
        description: 'Ba bước',
      });
      for (const [i, step] of STEPS.entries()) {
        await callApi(page, server.url, 'POST', '/api/steps', { flowId: flow.id, order: i + 1, ...step });
      }
      await page.goto(`${server.url}/flows/${flow.id}?mode=run`);
      await page.getByTestId('step-card-3').waitFor();

      // The first run, with its own input for step 1.
      await page.getByTestId('step-input-1').fill('trà xanh buổi sáng');
      await executeAll(page);
      const executionId = await page.getByTestId('execution-queue').getAttribute('data-execution-id');
      const firstRun: Result[] = (await callApi(page, server.url, 'GET', `/api/executions/${executionId}`))
        .results;
      expect(firstRun).toHaveLength(3);
      const [ideaResult, draftResult] = firstRun.toSorted((a, b) => a.stepOrder - b.stepOrder);

      // Approve the idea, then rewrite the draft.
      await expand(page, 1);
      await page.getByTestId(`approve-${ideaResult!.id}`).click();
      await expect
        .poll(() => page.getByTestId('step-results-1').getByTestId('result-status').allTextContents())
        .toEqual(['Approved']);
      await expand(page, 2);
      const draftCard = page.getByTestId('step-results-2');
      await draftCard.getByTestId(`edit-result-${draftResult!.id}`).click();
      await draftCard.getByTestId('result-text-input').fill('Một đoạn văn viết lại về trà xanh.');
      await draftCard.getByTestId('result-save').click();
      await expect.poll(() => draftCard.textContent()).toContain('Một đoạn văn viết lại về trà xanh.');
      // Recorded before the reset is asked for: the card may show the text while its save is under way, and the
      // two requests would then race (the record's positions below are the edit's, then the reset's).
      await expect
        .poll(
          async () =>
            (await callApi(page, server.url, 'GET', `/api/executions/${executionId}`)).results.find(
              (r: Result) => r.id === draftResult!.id,
            )?.result,
        )
        .toBe('Một đoạn văn viết lại về trà xanh.');

      // Reset, then a second run with another input.
      await page.getByTestId('reset-execution').click();
      await expect
        .poll(() => page.getByTestId('execution-status').getAttribute('data-status'))
        .toBe('waiting');
      await page.getByTestId('step-input-1').fill('trà ô long buổi chiều');
      await executeAll(page);
      const secondRun: Result[] = (
        await callApi(page, server.url, 'GET', `/api/executions/${executionId}`)
      ).results.filter((r: Result) => !firstRun.some((first) => first.id === r.id));
      expect(secondRun).toHaveLength(3);
      const secondIdea = secondRun.find((r) => r.stepOrder === 1)!;
      expect(secondIdea.result).not.toBe(ideaResult!.result);

      // The record's audit bundle signs a checkpoint that covers it.
      const bundle = await callApi(
        page,
        server.url,
        'GET',
        `/api/executions/${executionId}/audit?format=bundle`,
      );
      expect(bundle.streams[0].events).toHaveLength(18);

      // History opens at the end of the latest execution.
      await page.getByTestId('open-history').click();
      const dialog = page.getByTestId('history-dialog');
      await dialog.waitFor();
      const entries = dialog.getByTestId('history-entry');
      await expect.poll(() => entries.count()).toBe(18);
      const titles = await dialog.getByTestId('history-entry-title').allTextContents();
      expect(titles[0]).toBe('Execution bắt đầu bởi An');
      expect(titles[1]).toBe("Step 1 (Ý tưởng) bắt đầu chạy với input 'trà xanh buổi sáng'");
      expect(titles).toContain("Kết quả 'Branch 1' được approve bởi An");
      expect(titles).toContain("Kết quả 'Branch 1' được sửa bởi An");
      expect(titles).toContain('Execution được reset bởi An');
      expect(titles[11]).toBe("Step 1 (Ý tưởng) chạy lại (version 2) với input 'trà ô long buổi chiều'");
      const state = dialog.getByTestId('history-state');
      expect(await state.getAttribute('data-position')).toBe('18');
      expect(await dialog.getByTestId('history-point-label').textContent()).toBe('Thời điểm 18 / 18');
      // The record checks out by its hashes: Verified, with the last event's hash in full on hover.
      const verified = dialog.getByTestId('history-record-verified');
      await verified.waitFor();
      expect(await verified.textContent()).toMatch(/^Verified · 18 sự kiện · hash cuối [0-9a-f]{12}$/);
      expect(await verified.locator('code').getAttribute('title')).toMatch(/^[0-9a-f]{64}$/);
      expect(await dialog.getByTestId('history-audit-csv').getAttribute('href')).toBe(
        `/api/executions/${executionId}/audit?format=csv`,
      );
      // The checkpoint that covers it, its signature checked with the server's public key.
      await expect
        .poll(() => dialog.getByTestId('history-record-checkpoint').textContent())
        .toMatch(new RegExp(`^Checkpoint #${bundle.checkpoint.size} · .+ · chữ ký hợp lệ$`));
      expect(await dialog.getByTestId('history-audit-bundle').getAttribute('href')).toBe(
        `/api/executions/${executionId}/audit?format=bundle`,
      );
      await screenshot(page, 'history-01-end');

      // An early point: step 1 has answered, the others are still pending.
      await dialog.locator('[data-testid="history-entry"][data-position="3"]').click();
      await expect.poll(() => state.getAttribute('data-position')).toBe('3');
      const step1 = state.getByTestId('history-step-1');
      expect(await step1.getAttribute('data-status')).toBe('completed');
      expect(await step1.getByTestId('history-result').count()).toBe(1);
      expect(await step1.getByTestId('history-result-text').textContent()).toContain('trà xanh buổi sáng');
      expect(await step1.getByTestId('history-result-status').textContent()).toBe('Pending');
      expect(await state.getByTestId('history-step-2').getAttribute('data-status')).toBe('pending');
      expect(await state.textContent()).toMatch(/Step hiện tại: \d+ \/ \d+/);
      expect(await step1.textContent()).toMatch(/Tạo lúc \d/);
      expect(await state.getByTestId('history-step-2').getByTestId('history-result').count()).toBe(0);
      // The prompt the run was sent, after its [[labels]] were replaced, is there to read.
      await step1.getByTestId('history-prompt').locator('summary').click();
      expect(await step1.getByTestId('history-final-prompt').textContent()).toContain(
        'Give one idea for a post about tea.',
      );
      await screenshot(page, 'history-02-early-point');

      // Step forward with the slider's buttons to the approval: who approved, and when.
      for (let at = 3; at < 9; at++) await dialog.getByTestId('history-next').click();
      await expect.poll(() => state.getAttribute('data-position')).toBe('9');
      expect(await step1.getByTestId('history-result-status').textContent()).toBe('Approved');
      expect(await step1.getByTestId('history-approved-by').textContent()).toMatch(/^Approve bởi An · /);

      // The edit: its entry shows the diff, and the state shows the edited text.
      const edit = dialog.locator('[data-testid="history-entry"][data-type="ResultEdited"]');
      await edit.click();
      await expect.poll(() => state.getAttribute('data-position')).toBe('10');
      const diff = edit.getByTestId('history-diff');
      expect(await diff.locator('[data-kind="added"]').allTextContents()).toContainEqual(
        expect.stringContaining('viết lại'),
      );
      expect(await diff.locator('[data-kind="removed"]').count()).toBeGreaterThan(0);
      const step2 = state.getByTestId('history-step-2');
      expect(await step2.getByTestId('history-result-text').textContent()).toContain(
        'Một đoạn văn viết lại về trà xanh.',
      );
      expect(await step2.getByTestId('history-edited-by').textContent()).toMatch(/^Sửa bởi An · /);
      await screenshot(page, 'history-03-edit-point');

      // The reset: every step pending again, and nothing produced before it has gone.
      await dialog.locator('[data-testid="history-entry"][data-type="ExecutionReset"]').click();
      await expect.poll(() => state.getAttribute('data-position')).toBe('11');
      expect(await dialog.getByTestId('history-state-status').getAttribute('data-status')).toBe('waiting');
      for (const order of [1, 2, 3]) {
        expect(await state.getByTestId(`history-step-${order}`).getAttribute('data-status')).toBe('pending');
      }
      expect(await state.getByTestId('history-result').count()).toBe(3);
      expect(await step1.getByTestId('history-result-text').textContent()).toContain('trà xanh buổi sáng');
      await screenshot(page, 'history-04-reset-point');

      // The end, by the slider: the second run beside the first, as version 2.
      await dialog.getByTestId('history-slider').fill('18');
      await expect.poll(() => state.getAttribute('data-position')).toBe('18');
      expect(await dialog.getByTestId('history-state-status').getAttribute('data-status')).toBe('completed');
      expect(await step1.getByTestId('history-version').count()).toBe(2);
      const texts = await step1.getByTestId('history-result-text').allTextContents();
      expect(texts[1]).toContain('trà ô long buổi chiều');
      expect(await state.getByTestId('history-result').count()).toBe(6);
      await screenshot(page, 'history-05-second-run');

      // An event changed in the database, behind the server's back: the next opening says where.
      await env.database.sql`
        UPDATE events SET data = jsonb_set(data, '{userInput}', '"trà đen"')
        WHERE stream_id = ${`execution-${executionId}`} AND stream_position = 12`;
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await page.getByTestId('open-history').click();
      const changed = page.getByTestId('history-dialog').getByTestId('history-record-changed');
      await changed.waitFor();
      expect(await changed.textContent()).toMatch(/^Record đã bị thay đổi ở vị trí 12:/);
      // Every entry from there on is marked and struck through, not told as fact; the ones before are as they were.
      await expect
        .poll(() => entries.evaluateAll((all) => all.map((entry) => (entry as HTMLElement).dataset.verified)))
        .toEqual([...Array.from({ length: 11 }, () => 'true'), ...Array.from({ length: 7 }, () => 'false')]);
      const marks = page.getByTestId('history-dialog').getByTestId('history-entry-unverified');
      expect(await marks.count()).toBe(7);
      for (const mark of await marks.all()) expect(await mark.textContent()).toBe('không xác minh được');
      const tampered = page.locator('[data-testid="history-entry"][data-position="12"]');
      await expect
        .poll(() =>
          tampered
            .getByTestId('history-entry-title')
            .evaluate((el) => getComputedStyle(el).textDecorationLine),
        )
        .toBe('line-through');
      const before = page.locator('[data-testid="history-entry"][data-position="11"]');
      expect(await before.getByTestId('history-entry-unverified').count()).toBe(0);
      // A screen reader hears the mark and why, in the entry's name.
      expect(
        await page
          .getByRole('button', { name: /không xác minh được: record đã bị thay đổi ở vị trí 12/ })
          .count(),
      ).toBe(7);
      // The execution at its end rests on them: it says so too.
      expect(await page.getByTestId('history-state-unverified').textContent()).toBe('không xác minh được');
      // The boundary in view: the last verified entry, then the first changed one.
      await before.scrollIntoViewIfNeeded();
      await screenshot(page, 'history-06-record-changed');
      // The marks and the struck-through entries stay readable and named. (The edit's diff, a scrollable region
      // inside the entry's button, has no keyboard access of its own: known, and not the marks' doing.)
      const violations = await violationsOn(page);
      expect(violations.filter((v) => !v.startsWith('serious scrollable-region-focusable'))).toEqual([]);
    });
  },
);
