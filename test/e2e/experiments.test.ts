import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { violationsOn } from './axe';
import {
  ARTIFACTS,
  answerConfirmation,
  callApi,
  missingBrowser,
  screenshot,
  signOut,
  signUpInBrowser,
} from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

const TOPICS = ['trà xanh', 'trà sen', 'trà ô long'];

/** The experiment's id from the page's address, once the page of an experiment is shown. */
async function experimentShown(page: Page): Promise<string> {
  await page.getByTestId('experiment-page').waitFor();
  return new URL(page.url()).pathname.split('/').at(-1)!;
}

/** Waits on the experiment's page (read again every second while it runs) until it has completed. */
async function completed(page: Page) {
  await page
    .locator('[data-testid="experiment-title"] ~ [data-status="completed"]')
    .waitFor({ timeout: 60_000 });
}

/** Fills the form: every step approved at once, a length scorer; submits, and waits for the experiment's page. */
async function startFromForm(page: Page) {
  const form = page.getByTestId('experiment-form');
  await expect.poll(() => form.getByTestId('experiment-step').count()).toBe(3);
  await form.getByTestId('all-auto').click();
  await form.getByTestId('new-scorer-type').selectOption('length');
  await form.getByTestId('add-scorer').click();
  await form.getByTestId('scorer').last().getByLabel('Tối thiểu (ký tự)').fill('1');
  // Passes while the last step asks for a short post: the edited version regresses on it.
  await form.getByTestId('new-scorer-type').selectOption('contains');
  await form.getByTestId('add-scorer').click();
  await form.getByTestId('scorer').last().getByTestId('scorer-text').fill('short');
  await form.getByTestId('start-experiment').click();
  return experimentShown(page);
}

describe.skipIf(skipReason !== null)(
  `experiments in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it('runs a flow over a CSV dataset twice, the second after an edit against the first, and compares them', {
      timeout: 180_000,
    }, async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'experiments-failed-tab');
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'Hoa');
      const flow = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Blog trà',
        description: 'Bài viết về trà',
      });
      const steps: Array<{ id: string }> = [];
      for (const [order, name, systemPrompt] of [
        [1, 'Ý tưởng', 'List ideas about the topic.'],
        [2, 'Dàn ý', 'Outline a post from [[step-1]].'],
        [3, 'Bài viết', 'Write a short post from [[step-2]].'],
      ] as const)
        steps.push(
          await callApi(page, server.url, 'POST', '/api/steps', {
            flowId: flow.id,
            name,
            order,
            systemPrompt,
            ...(order === 1 ? { requiresUserInput: true } : {}),
          }),
        );
      const dataset = await callApi(page, server.url, 'POST', '/api/datasets', {
        name: 'Chủ đề trà',
        flowId: flow.id,
      });

      // The dataset's items from a CSV file, on the dataset's page.
      await page.goto(`${server.url}/datasets/${dataset.id}`);
      await page.getByTestId('dataset-items-empty').waitFor();
      const csv = [
        'Ý tưởng,expected:Bài viết',
        ...TOPICS.map((topic) => `${topic},Một bài về ${topic}`),
      ].join('\r\n');
      await page.setInputFiles('[data-testid="dataset-csv-input"]', {
        name: 'topics.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv, 'utf8'),
      });
      await expect.poll(() => page.getByTestId('dataset-item').count()).toBe(TOPICS.length);

      // Reached from the flow's screen, beside Datasets.
      await page.goto(`${server.url}/flows/${flow.id}`);
      await page.getByTestId('open-experiments').click();
      await page.getByTestId('experiments-empty').waitFor();
      await expect.poll(() => page.getByTestId('experiment-dataset').inputValue()).toBe(dataset.id);
      await screenshot(page, 'experiments-00-form');
      await page.waitForLoadState('networkidle');
      expect(await violationsOn(page)).toEqual([]);

      // A refusal of the form's own check is shown at its field, nothing is sent.
      await page.getByTestId('experiment-repetitions').fill('11');
      await page.getByTestId('start-experiment').click();
      await expect.poll(() => page.getByTestId('experiment-form').textContent()).toContain('repetitions');
      await page.getByTestId('experiment-repetitions').fill('1');

      // What only the server checks (a step approved by a judge no scorer reads) is shown beside the form.
      await page.getByTestId('step-review-mode').last().selectOption('judge');
      await page.getByTestId('start-experiment').click();
      await expect.poll(() => page.getByTestId('experiment-form-problem').textContent()).toContain('judge');
      expect(await page.getByTestId('experiment-form-problem').textContent()).toContain('"Bài viết"');
      expect(new URL(page.url()).pathname).toBe(`/flows/${flow.id}/experiments`);
      await screenshot(page, 'experiments-00-refused');

      // The first experiment, every step approved at once; its page reads it until it has ended.
      const first = await startFromForm(page);
      await completed(page);
      await expect.poll(() => page.getByTestId('experiment-finished').textContent()).toBe('3/3');
      expect(await page.getByTestId('count-completed').textContent()).toContain('3');
      await expect.poll(() => page.getByTestId('run-execution-link').count()).toBe(TOPICS.length);
      expect(await page.getByTestId('run-execution-link').first().getAttribute('href')).toContain(
        `/flows/${flow.id}?mode=run&execution=`,
      );
      await page.getByTestId('promote-experiment').click();
      await page.getByTestId('baseline-badge').waitFor();
      await screenshot(page, 'experiments-01-experiment');
      await page.waitForLoadState('networkidle');
      expect(await violationsOn(page)).toEqual([]);

      // The last step edited: a new version, run against the first (the flow's baseline, chosen by default).
      await callApi(page, server.url, 'PUT', `/api/steps/${steps[2]!.id}`, {
        systemPrompt: 'Write a long and detailed post with examples from [[step-2]].',
      });
      await page.getByRole('link', { name: 'Về danh sách experiment' }).click();
      await page.getByTestId('experiments-page').waitFor();
      await expect.poll(() => page.getByTestId('experiment-baseline').inputValue()).toBe(first);
      const second = await startFromForm(page);
      expect(second).not.toBe(first);
      await completed(page);
      expect(await page.getByTestId('experiment-baseline-link').textContent()).toContain('phiên bản 4');
      await page.getByTestId('score-again').click();
      await expect.poll(() => page.getByTestId('toast').last().textContent()).toContain('Đã chấm điểm lại');

      // Compared with its baseline: the last step's output changed for every item.
      await page.getByTestId('compare-with-baseline').click();
      await page.getByTestId('compare-page').waitFor();
      const items = page.getByTestId('compare-item');
      await expect.poll(() => items.count()).toBe(TOPICS.length);
      expect(await page.getByTestId('compare-csv').getAttribute('href')).toBe(
        `/api/experiments/compare?ids=${encodeURIComponent(`${first},${second}`)}&format=csv`,
      );
      expect(await page.getByTestId('score-chart').count()).toBeGreaterThan(0);
      expect(await page.getByTestId('summary-line').count()).toBeGreaterThan(5);
      // Every item regressed on the "short" scorer.
      await page.getByTestId('filter-regressed').click();
      await expect.poll(() => page.getByTestId('filter-regressed').getAttribute('aria-pressed')).toBe('true');
      await expect.poll(() => items.count()).toBe(TOPICS.length);
      await page.getByTestId('filter-regressed').click();
      await page.getByTestId('filter-changed').click();
      await expect.poll(() => page.getByTestId('filter-changed').getAttribute('aria-pressed')).toBe('true');
      await expect.poll(() => items.count()).toBe(TOPICS.length);
      await page.getByTestId('filter-missing').click();
      await page.getByTestId('filter-changed').click();
      await page.getByTestId('compare-no-rows').waitFor();
      await page.getByTestId('filter-all').click();
      await expect.poll(() => items.count()).toBe(TOPICS.length);

      // An item opened to its steps: the edited step changed, and its word diff against the baseline.
      await items.first().getByTestId('expand-item').click();
      const edited = page.locator(`[data-testid="compare-step-row"][data-step-id="${steps[2]!.id}"]`);
      const unchanged = page.locator(`[data-testid="compare-step-row"][data-step-id="${steps[0]!.id}"]`);
      await edited.waitFor();
      expect(await edited.getByTestId('compare-cell').nth(1).getAttribute('data-flags')).toContain('changed');
      expect(await unchanged.getByTestId('compare-cell').nth(1).getAttribute('data-flags')).toBe('');
      expect(await unchanged.getByTestId('show-diff').count()).toBe(0);
      await edited.getByTestId('show-diff').click();
      const diff = edited.getByTestId('word-diff');
      await diff.waitFor();
      expect(await diff.locator('[data-kind="added"]').count()).toBeGreaterThan(0);
      await screenshot(page, 'experiments-02-compare');
      for (const part of ['compare-summary', 'compare-charts', 'compare-grid'])
        await page.getByTestId(part).screenshot({ path: path.join(ARTIFACTS, `experiments-02-${part}.png`) });
      await page.waitForLoadState('networkidle');
      expect(await violationsOn(page)).toEqual([]);

      // From the list: both picked, the flow's baseline first.
      await page.getByRole('link', { name: 'Về danh sách experiment' }).click();
      await page.getByTestId('experiments-page').waitFor();
      await expect.poll(() => page.getByTestId('latest-experiment-row').count()).toBe(2);
      const rows = page.getByTestId('experiment-row');
      await expect.poll(() => rows.count()).toBe(2);
      // The list is read afresh each second while one of them has not ended in it.
      await expect.poll(() => rows.first().getByTestId('experiment-runs').textContent()).toContain('3/3');
      expect(
        await page.locator('[data-testid="experiment-row"] [data-testid="baseline-badge"]').count(),
      ).toBe(1);
      await rows.nth(0).getByTestId('select-experiment').check();
      await rows.nth(1).getByTestId('select-experiment').check();
      await screenshot(page, 'experiments-03-list');
      await page.getByTestId('compare-selected').click();
      await page.getByTestId('compare-page').waitFor();
      expect(new URL(page.url()).searchParams.get('ids')).toBe(`${first},${second}`);
      await expect.poll(() => items.count()).toBe(TOPICS.length);
      // On a phone's width the grid scrolls sideways within its card.
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, 'experiments-03-compare-narrow');
      await page.setViewportSize({ width: 1280, height: 900 });

      // Left to people, the runs wait for them; stopped, the experiment ends with them.
      await page.getByRole('link', { name: 'Về danh sách experiment' }).click();
      const form = page.getByTestId('experiment-form');
      await expect.poll(() => form.getByTestId('experiment-step').count()).toBe(3);
      // From the first step on (no baseline to reuse), the first step left to people.
      await form.getByTestId('experiment-baseline').selectOption('');
      await form.getByTestId('step-review-mode').nth(1).selectOption('auto');
      await form.getByTestId('step-review-mode').nth(2).selectOption('auto');
      await form.getByTestId('start-experiment').click();
      await experimentShown(page);
      await expect
        .poll(async () => Number(await page.getByTestId('count-waiting').locator('dd').textContent()), {
          timeout: 60_000,
        })
        .toBe(TOPICS.length);
      await screenshot(page, 'experiments-05-waiting');
      await page.getByTestId('stop-experiment').click();
      await answerConfirmation(page, true);
      await expect
        .poll(async () => Number(await page.getByTestId('count-stopped').locator('dd').textContent()), {
          timeout: 60_000,
        })
        .toBe(TOPICS.length);
      // Ended; with no scorer there is nothing to score again.
      expect(await page.getByTestId('score-again').getAttribute('data-disabled-reason')).toContain('scorer');

      // The flow's screen names the latest experiment of each version, each a link to it.
      await page.goto(`${server.url}/flows/${flow.id}`);
      const latest = page.getByTestId('latest-experiment-of-version');
      await expect.poll(() => latest.count()).toBe(2);
      expect(await latest.first().textContent()).toContain('v5');
      await screenshot(page, 'experiments-06-flow-screen');

      // The versions page offers to run two versions compared; the form comes preset.
      await page.goto(`${server.url}/flows/${flow.id}/versions`);
      await page.getByTestId('run-both-versions').click();
      await page.getByTestId('run-both').waitFor();
      expect(await page.getByTestId('run-both').textContent()).toContain('Chạy cả hai phiên bản');
      await screenshot(page, 'experiments-04-run-both');
      await signOut(page, server.url);
      await page.close();
    });
  },
);
