import { describe, expect, it } from 'vitest';
import { callApi, missingBrowser, screenshot, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

describe.skipIf(skipReason !== null)(
  `workflow recommendations in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it('generates recommendations from the flows, shows one, takes feedback and implements it as a flow', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'recommendations-failed-tab');
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'Hoa');
      // Two flows sharing a step, neither run yet: a template and two starting briefs to recommend.
      for (const [name, second] of [
        ['Blog trà xanh', 'Outline'],
        ['Bản tin trà', 'Write'],
      ] as const) {
        const flow = await callApi(page, server.url, 'POST', '/api/flows', {
          name,
          description: `${name} flow`,
        });
        await callApi(page, server.url, 'POST', '/api/steps', {
          flowId: flow.id,
          order: 1,
          name: 'Research',
          systemPrompt: 'Collect facts about green tea.',
        });
        await callApi(page, server.url, 'POST', '/api/steps', {
          flowId: flow.id,
          order: 2,
          name: second,
          systemPrompt: `${second} from [[step-1]].`,
        });
      }

      await page.getByTestId('navigation-bar').getByRole('link', { name: 'Recommendations' }).click();
      await page.getByTestId('recommendations-empty').waitFor();
      expect(await page.getByTestId('recommendations-empty').textContent()).toContain(
        'No Recommendations Yet',
      );
      // Each figure has its own query: the templates may still be on their way when the list is empty.
      await expect.poll(() => page.getByTestId('stat-templates').textContent()).toBe('3');

      await page.getByTestId('generate-recommendations').click();
      const toast = page.getByTestId('toast');
      await expect.poll(() => toast.textContent()).toContain('Recommendations Generated');
      expect(await toast.textContent()).toContain('Đã tạo 3 recommendation từ các workflow của bạn.');
      const cards = page.getByTestId('recommendation-card');
      await expect.poll(() => cards.count()).toBe(3);
      await expect.poll(() => page.getByTestId('stat-active-recommendations').textContent()).toBe('3');
      await expect.poll(() => page.getByTestId('stat-patterns').textContent()).toBe('3');
      // (70 + 60 + 60) / 3, rounded.
      await expect.poll(() => page.getByTestId('stat-average-confidence').textContent()).toBe('63%');
      expect(await page.getByTestId('tab-all').textContent()).toBe('All (3)');
      const titles = await page.getByTestId('recommendation-title').allTextContents();
      // Every title in the UI's Vietnamese, naming the flow it comes from.
      expect(titles).toContain('Thêm brief mở đầu cho "Bản tin trà"');
      expect(titles).toContain('Thêm brief mở đầu cho "Blog trà xanh"');
      await screenshot(page, 'recommendations-01-generated');

      await page.getByTestId('tab-automation').click();
      await page.getByText('No recommendations in this category yet.').waitFor();
      await page.getByTestId('tab-template').click();
      const templateCard = page.locator('[data-testid="recommendation-card"][data-type="template"]:visible');
      await expect.poll(() => templateCard.count()).toBe(1);
      expect(await templateCard.getByTestId('recommendation-priority').getAttribute('data-style')).toBe(
        'default',
      );
      const title = (await templateCard.getByTestId('recommendation-title').textContent())!;
      expect(title).toContain('Research');

      await templateCard.getByTestId('recommendation-open').click();
      const detail = page.getByTestId('recommendation-detail');
      await detail.waitFor();
      expect(await detail.getByTestId('recommendation-complexity-bar').getAttribute('style')).toContain(
        '25%',
      );
      expect(await detail.getByTestId('recommendation-steps').textContent()).toContain('Step 1: Research');
      expect(await detail.textContent()).toContain('10 phút mỗi lần chạy');
      expect(await detail.getByTestId('recommendation-community-feedback').textContent()).toContain(
        '0 feedback',
      );
      await screenshot(page, 'recommendations-02-detail');

      await detail.getByTestId('recommendation-give-feedback').click();
      const feedback = page.getByTestId('feedback-dialog');
      await feedback.waitFor();
      expect(await feedback.getByTestId('feedback-submit').isDisabled()).toBe(true);
      await feedback.getByTestId('feedback-action').selectOption('accepted');
      await feedback.getByTestId('feedback-star-4').click();
      await feedback.getByTestId('feedback-comment').fill('Đúng thứ tôi cần.');
      expect(await feedback.getByTestId('feedback-submit').isDisabled()).toBe(false);
      await screenshot(page, 'recommendations-03-feedback');
      await feedback.getByTestId('feedback-submit').click();
      await expect.poll(() => toast.textContent()).toContain('Thank you for your feedback!');
      await feedback.waitFor({ state: 'detached' });
      await expect
        .poll(() => detail.getByTestId('recommendation-average-rating').textContent())
        .toBe('4.0 / 5');
      expect(await detail.getByTestId('recommendation-community-feedback').textContent()).toContain(
        '1 feedback',
      );

      await detail.getByTestId('recommendation-implement-workflow').click();
      await expect.poll(() => toast.textContent()).toContain('Workflow Created');
      await detail.waitFor({ state: 'detached' });
      await screenshot(page, 'recommendations-04-implemented');

      // Not interested: the recommendation leaves the list.
      await page.getByTestId('tab-all').click();
      const enhancement = page.locator(
        '[data-testid="recommendation-card"][data-type="enhancement"]:visible',
      );
      await enhancement.first().getByTestId('recommendation-open').click();
      await detail.getByTestId('recommendation-not-interested').click();
      await detail.waitFor({ state: 'detached' });
      await expect.poll(() => page.locator('[data-testid="recommendation-card"]:visible').count()).toBe(2);

      await page.getByTestId('navigation-bar').getByRole('link', { name: 'Flows' }).click();
      const created = page.getByTestId('flow-card').filter({ hasText: title });
      await created.waitFor();
      expect(await created.getByTestId('flow-card-step-count').textContent()).toBe('1 Steps');
      await screenshot(page, 'recommendations-05-flows');
    }, 90_000);
  },
);
