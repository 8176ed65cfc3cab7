import { describe, expect, it } from 'vitest';
import {
  callApi,
  joinWorkspace as join,
  missingBrowser,
  openBrowser,
  screenshot,
  signedUpPerson as signedUp,
} from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

describe.skipIf(skipReason !== null)(
  `a reviewer's decision binds${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it('the reviewer rejects; the runner has no Approve, edits the text; the reviewer sees the diff and approves; the next step uses that text', async () => {
      const { server, browser } = env;
      const url = server.url;
      screenshotTabsOnFailure(browser, 'review-binds-failed-owner');
      const second = await openBrowser();
      const third = await openBrowser();
      try {
        screenshotTabsOnFailure(second, 'review-binds-failed-runner');
        screenshotTabsOnFailure(third, 'review-binds-failed-reviewer');
        const owner = await signedUp(browser, url, 'Hùng');
        const runner = await signedUp(second, url, 'Bình');
        const reviewer = await signedUp(third, url, 'Chi');
        const workspace = await callApi(owner.page, url, 'POST', '/api/workspaces', {
          name: 'Nhóm Nội dung',
        });
        await join(url, owner, workspace.id, runner, 'editor');
        await join(url, owner, workspace.id, reviewer, 'reviewer');
        // The owner sets the rule: Chi approves step 1; step 2 quotes it.
        const flow = await callApi(owner.page, url, 'POST', '/api/flows', {
          name: 'Bài blog',
          description: 'Nháp rồi bản cuối',
          workspaceId: workspace.id,
        });
        const draft = await callApi(owner.page, url, 'POST', '/api/steps', {
          flowId: flow.id,
          order: 1,
          name: 'Bản nháp',
          systemPrompt: 'Viết bản nháp về trà xanh.',
          review: { by: 'members', userIds: [reviewer.id] },
        });
        await callApi(owner.page, url, 'POST', '/api/steps', {
          flowId: flow.id,
          order: 2,
          name: 'Bản cuối',
          systemPrompt: 'Trau chuốt: [[step-1]]',
        });

        // Bình runs step 1: it waits for Chi.
        await runner.page.goto(`${url}/flows/${flow.id}?mode=run`);
        await runner.page.getByTestId('execute-step-1').click();
        const waiting = runner.page.getByTestId(`step-waiting-review-${draft.id}`);
        await waiting.waitFor({ timeout: 20_000 });
        const [review] = await callApi(reviewer.page, url, 'GET', '/api/reviews?status=pending');

        // Chi rejects from the run screen with a reason.
        await reviewer.page.goto(`${url}/reviews`);
        await reviewer.page.getByTestId(`open-review-${review.id}`).click();
        const chiWaiting = reviewer.page.getByTestId(`step-waiting-review-${draft.id}`);
        await chiWaiting.getByTestId(`review-reject-${review.id}`).click();
        await chiWaiting.getByTestId(`review-reason-${review.id}`).fill('Quá dài, viết gọn lại.');
        await chiWaiting.getByTestId(`review-send-reject-${review.id}`).click();

        // Bình sees the rejection, and his result card offers no Approve of his own.
        await runner.page.getByTestId(`step-review-rejected-${draft.id}`).waitFor();
        const results1 = runner.page.getByTestId('step-results-1');
        await expect
          .poll(
            async () =>
              (await results1.locator('[data-testid^="result-review-status-"]').first().textContent()) ?? '',
          )
          .toContain('reject');
        expect(await results1.locator('button[role="checkbox"]').count()).toBe(0);
        // Nor does the API let him tick it.
        const execution = await callApi(runner.page, url, 'GET', `/api/flows/${flow.id}/executions/latest`);
        const resultId: string = execution.results[0].id;
        const tick = await runner.page.request.fetch(`${url}/api/step-results/${resultId}`, {
          method: 'PUT',
          headers: { origin: url, 'content-type': 'application/json' },
          data: { approved: true },
        });
        expect(tick.status()).toBe(403);
        await screenshot(runner.page, 'review-binds-01-rejected-no-approve');

        // Bình edits the text: the review is asked of Chi again, with the edit.
        await results1.getByTestId(`edit-result-${resultId}`).click();
        const editor = results1.getByTestId(`result-editor-${resultId}`);
        await editor.getByTestId('result-text-input').fill('Trà xanh: gọn, thơm, tốt cho sức khỏe.');
        await editor.getByTestId('result-save').click();
        await waiting.waitFor({ timeout: 20_000 });

        // Chi sees who edited it and the diff against the model's text, live, and approves.
        const again = reviewer.page.getByTestId(`step-waiting-review-${draft.id}`);
        await again.waitFor({ timeout: 20_000 });
        const edits = again.locator('[data-testid^="review-edits-"]');
        await edits.waitFor();
        expect(await edits.textContent()).toContain('Đã sửa bởi Bình Nguyễn');
        expect(await edits.locator('[data-kind="added"]').count()).toBeGreaterThan(0);
        expect(await again.locator('[data-testid^="review-asked-again-"]').textContent()).toContain(
          'Yêu cầu lại vì kết quả đã được sửa',
        );
        await screenshot(reviewer.page, 'review-binds-02-reviewer-sees-diff');
        await again.locator('[data-testid^="review-approve-"]').click();
        await reviewer.page.locator('[data-testid^="review-send-approve-"]').click();
        await again.waitFor({ state: 'detached' });

        // Bình runs step 2; its Logs show the approved text in the prompt.
        await runner.page.getByTestId(`step-review-approved-${draft.id}`).waitFor();
        const header = runner.page.getByTestId('step-header-2');
        if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
        await runner.page.getByTestId('execute-step-2').click();
        await runner.page
          .getByTestId('step-results-2')
          .getByTestId('result-status')
          .first()
          .waitFor({ timeout: 20_000 });
        await runner.page.getByTestId('open-logs').click();
        const entries = runner.page.getByTestId('logs-dialog').getByTestId('log-entry');
        const prompt = entries.filter({ hasText: 'Step 2' }).locator('pre').first();
        await expect
          .poll(() => prompt.textContent())
          .toContain('Trau chuốt: Trà xanh: gọn, thơm, tốt cho sức khỏe.');
        await screenshot(runner.page, 'review-binds-03-logs-approved-text');
      } finally {
        await second.close();
        await third.close();
      }
    });
  },
);
