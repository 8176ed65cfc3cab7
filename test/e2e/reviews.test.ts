import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { reviewLink } from '../../src/domain/review-link';
import {
  callApi,
  joinWorkspace,
  missingBrowser,
  openBrowser,
  screenshot,
  signedUpPerson as signedUp,
} from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

/** The number beside the Reviews link; none shown is 0. */
async function pendingCount(page: Page): Promise<number> {
  const count = page.getByTestId('navigation-bar').getByTestId('pending-review-count');
  return (await count.count()) === 0 ? 0 : Number(await count.first().textContent());
}

describe.skipIf(skipReason !== null)(
  `a step reviewed by two other people${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it('the inbox shows the request live and opens its execution at the step; a rejection and two approvals reach the runner live', async () => {
      const { server, browser } = env;
      const url = server.url;
      screenshotTabsOnFailure(browser, 'reviews-failed-runner');
      const second = await openBrowser();
      const third = await openBrowser();
      try {
        screenshotTabsOnFailure(second, 'reviews-failed-reviewer-1');
        screenshotTabsOnFailure(third, 'reviews-failed-reviewer-2');
        const runner = await signedUp(browser, url, 'An');
        const binh = await signedUp(second, url, 'Bình');
        const chi = await signedUp(third, url, 'Chi');

        // The runner's workspace and its flow: step 1 needs both reviewers' approval, step 2 follows it.
        const workspace = await callApi(runner.page, url, 'POST', '/api/workspaces', {
          name: 'Nhóm Nội dung',
        });
        await joinWorkspace(url, runner, workspace.id, binh, 'reviewer');
        await joinWorkspace(url, runner, workspace.id, chi, 'reviewer');
        const flow = await callApi(runner.page, url, 'POST', '/api/flows', {
          name: 'Bài blog',
          description: 'Bản nháp rồi bản cuối',
          workspaceId: workspace.id,
        });
        const draft = await callApi(runner.page, url, 'POST', '/api/steps', {
          flowId: flow.id,
          order: 1,
          name: 'Bản nháp',
          systemPrompt: 'Viết bản nháp một bài về trà xanh.',
          review: { by: 'members', userIds: [binh.id, chi.id], approvals: 2 },
        });
        await callApi(runner.page, url, 'POST', '/api/steps', {
          flowId: flow.id,
          order: 2,
          name: 'Bản cuối',
          systemPrompt: 'Trau chuốt [[step-1]].',
          inputSources: [draft.id],
        });

        // Bình has the inbox open, with nothing waiting yet.
        await binh.page.goto(`${url}/reviews`);
        await binh.page.getByTestId('reviews-empty').waitFor();
        expect(await pendingCount(binh.page)).toBe(0);

        // The runner runs step 1 on the run screen: it waits for the reviewers.
        await runner.page.goto(`${url}/flows/${flow.id}?mode=run`);
        await runner.page.getByTestId('execute-step-1').click();
        const waiting = runner.page.getByTestId(`step-waiting-review-${draft.id}`);
        await waiting.waitFor({ timeout: 20_000 });
        // The people asked, by name (once the members list is read).
        await expect
          .poll(async () => (await waiting.textContent()) ?? '')
          .toContain('Đang chờ duyệt (review) bởi Bình Nguyễn và Chi Nguyễn');
        expect(await waiting.textContent()).toContain('0/2 approve');
        // The runner is not one of the reviewers: no decision for them.
        expect(await waiting.locator('[data-testid^="review-approve-"]').count()).toBe(0);
        // The step waits for people, not for a model: no spinner, an hourglass; step 2 is not running either.
        expect(await runner.page.getByTestId('step-status-1').getAttribute('data-status')).toBe('review');
        expect(await runner.page.getByTestId('step-status-2').getAttribute('data-status')).toBe('pending');
        expect(await runner.page.getByTestId('step-card-1').locator('.animate-spin').count()).toBe(0);
        // Only the review approves the result: its checkbox is not offered, where the review stands is.
        const results1 = runner.page.getByTestId('step-results-1');
        const draftStatus = results1.locator('[data-testid^="result-review-status-"]');
        await expect.poll(async () => (await draftStatus.first().textContent()) ?? '').toBe('Chờ review');
        expect(await results1.locator('button[role="checkbox"]').count()).toBe(0);
        await screenshot(runner.page, 'reviews-01-runner-waiting');

        // The request arrives in Bình's open inbox without a reload, and the count beside Reviews says 1.
        const openLink = binh.page.locator('[data-testid^="open-review-"]');
        await openLink.waitFor();
        await expect.poll(() => pendingCount(binh.page)).toBe(1);
        const [review] = await callApi(binh.page, url, 'GET', '/api/reviews?status=pending');
        const item = binh.page.getByTestId(`review-${review.id}`);
        expect(await item.textContent()).toContain('Bài blog · Bản nháp');
        expect(await item.textContent()).toContain('Yêu cầu bởi An Nguyễn');
        await screenshot(binh.page, 'reviews-02-inbox-live');

        // It opens the execution under review at its step (Bình has no execution of this flow).
        expect(await openLink.getAttribute('href')).toBe(reviewLink(flow.id, review.executionId, draft.id));
        await openLink.click();
        await binh.page.getByTestId('run-mode').waitFor();
        const linked = binh.page.locator(`[data-testid^="step-card-"][data-step-id="${draft.id}"]`);
        await expect.poll(() => linked.getAttribute('data-linked')).toBe('true');
        const binhWaiting = binh.page.getByTestId(`step-waiting-review-${draft.id}`);
        await binhWaiting.waitFor();
        // It is the flow's latest execution: no note says it is another one.
        await expect
          .poll(() => binh.page.evaluate(() => performance.getEntriesByType('resource').map((r) => r.name)))
          .toContainEqual(expect.stringMatching(/\/executions\/latest$/));
        expect(await binh.page.getByTestId('named-execution').count()).toBe(0);
        expect(await linked.isVisible()).toBe(true);
        await expect
          .poll(() => linked.evaluate((card) => card.getBoundingClientRect().top < window.innerHeight))
          .toBe(true);
        await screenshot(binh.page, 'reviews-03-opened-at-step');

        // Bình rejects with a reason; the runner reads it on the run screen as it happens.
        await binhWaiting.getByTestId(`review-reject-${review.id}`).click();
        await binhWaiting.getByTestId(`review-reason-${review.id}`).fill('Thiếu phần nguồn gốc của trà.');
        await screenshot(binh.page, 'reviews-04-reject-reason');
        await binhWaiting.getByTestId(`review-send-reject-${review.id}`).click();
        const rejected = runner.page.getByTestId(`step-review-rejected-${draft.id}`);
        await rejected.waitFor();
        expect(await rejected.textContent()).toContain(
          'Bị Bình Nguyễn từ chối: Thiếu phần nguồn gốc của trà.',
        );
        await expect
          .poll(async () => (await draftStatus.first().textContent()) ?? '')
          .toBe('Bị Bình Nguyễn reject: Thiếu phần nguồn gốc của trà.');
        await screenshot(runner.page, 'reviews-05-runner-sees-rejection');
        await expect.poll(() => pendingCount(binh.page)).toBe(0);

        // The runner runs the step again: a new request, live in Bình's count and on the open run screen.
        await runner.page.getByTestId('execute-step-1').click();
        await waiting.waitFor({ timeout: 20_000 });
        await expect.poll(() => pendingCount(binh.page)).toBe(1);
        const approveBinh = binhWaiting.locator('[data-testid^="review-approve-"]');
        await approveBinh.waitFor();
        // Approving opens a dialog that takes a comment for the runner.
        await approveBinh.click();
        const approveDialog = binh.page.locator('[data-testid^="review-approve-dialog-"]');
        await approveDialog.waitFor();
        await approveDialog.locator('[data-testid^="review-comment-"]').fill('Đã có nguồn gốc, ổn rồi.');
        await screenshot(binh.page, 'reviews-05a-approve-dialog');
        await approveDialog.locator('[data-testid^="review-send-approve-"]').click();
        await approveDialog.waitFor({ state: 'detached' });
        await expect.poll(async () => (await waiting.textContent()) ?? '').toContain('1/2 approve');
        // The runner sees who approved so far, with the comment.
        await expect
          .poll(async () => (await waiting.textContent()) ?? '')
          .toContain('Đã approve: Bình Nguyễn');
        expect(await waiting.textContent()).toContain('Đã có nguồn gốc, ổn rồi.');
        // Bình's part is done: the screen says so, and the review leaves Bình's count.
        await binhWaiting.locator('[data-testid^="review-approved-by-me-"]').waitFor();
        await expect.poll(() => pendingCount(binh.page)).toBe(0);
        await screenshot(binh.page, 'reviews-05b-approved-by-first');

        // Chi approves from the inbox too; the second approval lets the run go on.
        await chi.page.goto(`${url}/reviews`);
        const chiOpen = chi.page.locator('[data-testid^="open-review-"]');
        await chiOpen.waitFor();
        // The count beside Reviews is its own read: it may come a moment after the list.
        await expect.poll(() => pendingCount(chi.page)).toBe(1);
        await screenshot(chi.page, 'reviews-06-second-inbox');
        await chiOpen.click();
        const chiWaiting = chi.page.getByTestId(`step-waiting-review-${draft.id}`);
        await chiWaiting.waitFor();
        await chiWaiting.locator('[data-testid^="review-approve-"]').click();
        // No comment this time: approved as it is.
        await chi.page.locator('[data-testid^="review-send-approve-"]').click();
        await chiWaiting.waitFor({ state: 'detached' });

        // The runner's screen no longer waits: it says who approved, with their comments, and step 2 runs.
        await waiting.waitFor({ state: 'detached' });
        const approved = runner.page.getByTestId(`step-review-approved-${draft.id}`);
        await approved.waitFor();
        expect(await approved.textContent()).toContain('Đã được Bình Nguyễn và Chi Nguyễn approve.');
        expect(await approved.textContent()).toContain('Nhận xét của Bình Nguyễn: Đã có nguồn gốc, ổn rồi.');
        await expect
          .poll(async () => (await draftStatus.first().textContent()) ?? '')
          .toBe('Đã được Bình Nguyễn và Chi Nguyễn approve');
        expect(await results1.locator('button[role="checkbox"]').count()).toBe(0);
        await screenshot(runner.page, 'reviews-06b-runner-approved');
        const header = runner.page.getByTestId('step-header-2');
        if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
        await runner.page.getByTestId('execute-step-2').click();
        await runner.page
          .getByTestId('step-results-2')
          .getByTestId('result-status')
          .first()
          .waitFor({ timeout: 20_000 });
        await screenshot(runner.page, 'reviews-07-run-goes-on');

        // Both requests are in Chi's done list.
        await chi.page.goto(`${url}/reviews`);
        await chi.page.getByTestId('reviews-done').click();
        // The rejected request and the approved one.
        await expect.poll(() => chi.page.locator('[data-testid^="open-review-"]').count()).toBe(2);
        await screenshot(chi.page, 'reviews-08-done');

        // The runner asks Bình to look at step 2 with a note, due in a few seconds.
        const { id: executionId } = await callApi(
          runner.page,
          url,
          'GET',
          `/api/flows/${flow.id}/executions/latest`,
        );
        const steps: { id: string; order: number }[] = await callApi(
          runner.page,
          url,
          'GET',
          `/api/flows/${flow.id}/steps`,
        );
        const final = steps.find((step) => step.order === 2)!;
        const finalReview = await callApi(
          runner.page,
          url,
          'POST',
          `/api/executions/${executionId}/steps/${final.id}/review-requests`,
          {
            userIds: [binh.id],
            note: 'Nhờ xem kỹ đoạn kết.',
            dueAt: new Date(Date.now() + 6_000).toISOString(),
          },
        );
        // In Bình's inbox it is marked overdue once its due time has passed, without a reload.
        await binh.page.goto(`${url}/reviews`);
        const late = binh.page.getByTestId(`review-${finalReview.id}`);
        await late.waitFor();
        await binh.page.getByTestId(`review-overdue-${finalReview.id}`).waitFor({ timeout: 20_000 });
        expect(await late.textContent()).toContain('Quá hạn');
        expect(await late.getAttribute('data-overdue')).toBe('true');
        await screenshot(binh.page, 'reviews-09-inbox-overdue');

        // Opened, the run screen shows the runner's note; the result has no Approve of its own while reviewed.
        await binh.page.getByTestId(`open-review-${finalReview.id}`).click();
        const finalWaiting = binh.page.getByTestId(`step-waiting-review-${final.id}`);
        await finalWaiting.waitFor();
        expect(await binh.page.getByTestId(`review-note-${finalReview.id}`).textContent()).toContain(
          'Nhờ xem kỹ đoạn kết.',
        );
        await expect
          .poll(async () => (await finalWaiting.textContent()) ?? '')
          .toContain('Đang chờ duyệt (review) bởi Bình Nguyễn');
        const results2 = binh.page.getByTestId('step-results-2');
        await expect
          .poll(
            async () =>
              (await results2.locator('[data-testid^="result-review-status-"]').first().textContent()) ?? '',
          )
          .toBe('Chờ review');
        expect(await results2.locator('button[role="checkbox"]').count()).toBe(0);
        await screenshot(binh.page, 'reviews-10-note-and-no-checkbox');

        // Chi has the run open when the owner removes Chi from the workspace: the tab says so and turns off.
        await chi.page.goto(`${url}${reviewLink(flow.id, executionId, draft.id)}`);
        await chi.page.getByTestId(`step-review-approved-${draft.id}`).waitFor();
        const removal = await runner.page.request.fetch(
          `${url}/api/workspaces/${workspace.id}/members/${chi.id}`,
          {
            method: 'DELETE',
            headers: { origin: url },
          },
        );
        expect(removal.status()).toBe(204);
        const removedNote = chi.page.getByTestId('removed-from-workspace');
        await removedNote.waitFor();
        expect(await removedNote.textContent()).toContain('Bạn không còn ở workspace này');
        expect(await chi.page.getByTestId('step-header-1').isDisabled()).toBe(true);
        expect(await chi.page.getByTestId('run-mode').isVisible()).toBe(true);
        await screenshot(chi.page, 'reviews-11-removed-from-workspace');
      } finally {
        await second.close();
        await third.close();
      }
    });
  },
);
