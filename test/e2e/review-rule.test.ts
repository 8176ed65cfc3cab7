import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, missingBrowser, openBrowser, screenshot, signOut, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

interface StepRow {
  id: string;
  review?: { by: string; userIds?: string[]; approvals: number; dueInHours?: number; onDue?: string } | null;
}

/** A datetime-local value `hours` ahead, in the page's own time zone. */
const localInputIn = (page: Page, hours: number) =>
  page.evaluate((h) => {
    const at = new Date(Date.now() + h * 3_600_000);
    return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  }, hours);

describe.skipIf(skipReason !== null)(
  `named reviewers and a due time, set in edit mode and asked for on the run screen${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it('an owner names a reviewer and a due time for a step, runs it again after a rejection, and asks for review of the next step', async () => {
      const { server, browser } = env;
      const url = server.url;
      screenshotTabsOnFailure(browser, 'review-rule-failed-owner');
      const others = await openBrowser();
      try {
        screenshotTabsOnFailure(others, 'review-rule-failed-member');
        const page = await browser.newPage();
        await signUpInBrowser(page, url, 'An');
        const workspace = await callApi(page, url, 'POST', '/api/workspaces', { name: 'Nhóm Nội dung' });

        // Bình joins as a reviewer, Dũng as an auditor (who may not review), one after the other in one browser.
        const member = await others.newPage();
        const join = async (firstName: string, role: 'reviewer' | 'auditor') => {
          await signUpInBrowser(member, url, firstName);
          const me = await callApi(member, url, 'GET', '/api/auth/user');
          const { acceptUrl } = await callApi(
            page,
            url,
            'POST',
            `/api/workspaces/${workspace.id}/invitations`,
            {
              email: me.email,
              role,
            },
          );
          const token = new URL(acceptUrl).pathname.split('/').at(-1);
          await callApi(member, url, 'POST', `/api/invitations/${token}/accept`);
          return me.id as string;
        };
        const dung = await join('Dũng', 'auditor');
        await signOut(member, url);
        const binh = await join('Bình', 'reviewer');

        const flow = await callApi(page, url, 'POST', '/api/flows', {
          name: 'Bài blog',
          description: 'Một bản nháp',
          workspaceId: workspace.id,
        });
        const draft = await callApi(page, url, 'POST', '/api/steps', {
          flowId: flow.id,
          order: 1,
          name: 'Bản nháp',
          systemPrompt: 'Viết bản nháp một bài về trà xanh.',
        });
        const summary = await callApi(page, url, 'POST', '/api/steps', {
          flowId: flow.id,
          order: 2,
          name: 'Tóm tắt',
          systemPrompt: 'Tóm tắt [[step-1]] trong hai câu.',
        });
        const savedRule = async () =>
          ((await callApi(page, url, 'GET', `/api/flows/${flow.id}/steps`)) as StepRow[])[0]?.review ?? null;

        // Edit mode: named members, from those who may review.
        await page.goto(`${url}/flows/${flow.id}`);
        await page.getByTestId('edit-mode').waitFor();
        await page.getByTestId('step-tree-item-1').click();
        const rule = page.getByTestId('step-review-rule');
        await rule.waitFor();
        await rule.getByTestId('step-review-by').selectOption('members');
        const list = rule.getByTestId('step-review-members');
        await list.getByTestId(`step-review-member-${binh}`).waitFor();
        expect(await list.textContent()).toContain('Bình Nguyễn');
        expect(await list.getByTestId(`step-review-member-${dung}`).count()).toBe(0);
        expect(await list.textContent()).not.toContain('Dũng');
        // The person editing is never offered.
        expect(await list.textContent()).not.toContain('An Nguyễn');
        await list.getByLabel('Bình Nguyễn').click();
        // A tick is not a save: Save is.
        const versions = async () =>
          ((await callApi(page, url, 'GET', `/api/flows/${flow.id}/versions`)) as unknown[]).length;
        const before = await versions();
        await rule.getByTestId('step-review-save').click();
        await expect.poll(savedRule).toMatchObject({ by: 'members', userIds: [binh], approvals: 1 });
        expect(await rule.getByTestId('step-review-approvals').getAttribute('max')).toBe('1');

        // A due time: out of range is refused where it was typed; 48 hours and what happens once due are
        // saved together, as one version of the flow.
        const hours = rule.getByLabel('Hạn duyệt (giờ)');
        await hours.fill('9999');
        await expect.poll(() => hours.getAttribute('aria-invalid')).toBe('true');
        await hours.fill('48');
        const onDue = rule.getByLabel('Khi quá hạn');
        await expect.poll(() => onDue.isEnabled()).toBe(true);
        await onDue.selectOption('escalate');
        await rule.getByTestId('step-review-save').click();
        await expect.poll(savedRule).toMatchObject({
          by: 'members',
          userIds: [binh],
          approvals: 1,
          dueInHours: 48,
          onDue: 'escalate',
        });
        expect(await versions()).toBe(before + 2);
        await rule.scrollIntoViewIfNeeded();
        await screenshot(page, 'review-rule-01-edit-mode');

        // The run screen: the step waits for Bình, with the due time the rule gives.
        await page.goto(`${url}/flows/${flow.id}?mode=run`);
        await page.getByTestId('execute-step-1').click();
        const waiting = page.getByTestId(`step-waiting-review-${draft.id}`);
        await waiting.waitFor({ timeout: 20_000 });
        await expect
          .poll(async () => (await waiting.textContent()) ?? '')
          .toContain('Đang chờ duyệt (review) bởi Bình Nguyễn');
        expect(await waiting.textContent()).toContain('hạn ');
        // Waiting already: nothing to ask for.
        expect(await page.getByTestId('request-review-1').count()).toBe(0);

        // Bình rejects it. The rejected text is not asked again as it stands (no "Yêu cầu review"): a new run
        // of the step asks Bình again, as the rule says.
        const [review] = await callApi(member, url, 'GET', '/api/reviews?status=pending');
        await callApi(member, url, 'POST', `/api/reviews/${review.id}/reject`, { reason: 'Thiếu nguồn.' });
        await page.getByTestId(`step-review-rejected-${draft.id}`).waitFor();
        expect(await page.getByTestId('request-review-1').count()).toBe(0);
        await page.getByTestId('execute-step-1').click();
        await expect
          .poll(async () => (await callApi(member, url, 'GET', '/api/reviews?status=pending')).length)
          .toBe(1);
        await waiting.waitFor();
        const [again] = await callApi(member, url, 'GET', '/api/reviews?status=pending');
        expect(again.id).not.toBe(review.id);
        await callApi(member, url, 'POST', `/api/reviews/${again.id}/approve`, {});

        // The next step has no rule: its runner asks for review as they see fit.
        await page.getByTestId(`step-review-approved-${draft.id}`).waitFor();
        const header = page.getByTestId('step-header-2');
        if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
        await page.getByTestId('execute-step-2').click();
        const ask = page.getByTestId('request-review-2');
        await ask.waitFor({ timeout: 20_000 });
        await ask.click();
        const dialog = page.getByTestId('request-review-dialog');
        await dialog.waitFor();
        // Asking a role nobody else holds: the server's refusal shows in the dialog.
        await dialog.getByTestId('request-review-by').selectOption('editor');
        await dialog.getByTestId('request-review-send').click();
        const error = dialog.getByTestId('request-review-error');
        await error.waitFor();
        expect(await error.textContent()).toContain('vai trò editor');
        await screenshot(page, 'review-rule-02-request-refused');

        // Bình by name (the runner and the auditor are not offered), a due time, what happens then, a note.
        await dialog.getByTestId('request-review-by').selectOption('members');
        // The refusal was about the role: it goes once the request changes.
        await error.waitFor({ state: 'detached' });
        const members = dialog.getByTestId('request-review-members');
        await members.getByTestId(`request-review-member-${binh}`).waitFor();
        expect(await members.textContent()).not.toContain('An Nguyễn');
        expect(await members.textContent()).not.toContain('Dũng');
        if (
          (await members.getByTestId(`request-review-member-${binh}`).getAttribute('data-state')) !==
          'checked'
        )
          await members.getByLabel('Bình Nguyễn').click();
        await dialog.getByLabel('Hạn duyệt').fill(await localInputIn(page, 24));
        await dialog.getByLabel('Khi quá hạn').selectOption('fail');
        await dialog.getByLabel('Ghi chú cho người duyệt').fill('Nhờ xem lại bản tóm tắt.');
        await screenshot(page, 'review-rule-03-request-dialog');
        await dialog.getByTestId('request-review-send').click();
        await dialog.waitFor({ state: 'detached' });

        // The panel says whom it waits for, as pushed; the request is in Bình's inbox.
        const waitingSummary = page.getByTestId(`step-waiting-review-${summary.id}`);
        await waitingSummary.waitFor();
        expect(await waitingSummary.textContent()).toContain('Đang chờ duyệt (review) bởi Bình Nguyễn');
        expect(await waitingSummary.textContent()).toContain(
          'Ghi chú của người chạy: Nhờ xem lại bản tóm tắt.',
        );
        expect(await ask.count()).toBe(0);
        const [asked] = await callApi(member, url, 'GET', '/api/reviews?status=pending');
        expect(asked.stepId).toBe(summary.id);
        expect(asked.dueAt).not.toBeNull();
        await screenshot(page, 'review-rule-04-waiting-again');

        // Made an editor, Bình reads the rule but may not change it, nor move or delete the flow that has it.
        await callApi(page, url, 'PUT', `/api/workspaces/${workspace.id}/members/${binh}`, {
          role: 'editor',
        });
        await member.goto(`${url}/flows/${flow.id}`);
        await member.getByTestId('edit-mode').waitFor();
        await member.getByTestId('step-tree-item-1').click();
        const shown = member.getByTestId('step-review-rule');
        await shown.getByTestId('step-review-owners-only').waitFor();
        expect(await shown.getByTestId('step-review-owners-only').textContent()).toBe(
          'Chỉ owner của workspace mới đổi được quy tắc review.',
        );
        expect(await shown.textContent()).toContain('Bình Nguyễn');
        expect(await shown.locator('select, input, button').count()).toBe(0);
        // The step's other settings are the editor's to change; the step itself, with its rule, is not theirs to remove.
        expect(await member.getByTestId('edit-toggle').count()).toBe(1);
        expect(await member.getByTestId('delete-step').count()).toBe(0);
        await screenshot(member, 'review-rule-05-editor-reads-rule');
        await member.goto(`${url}/flows`);
        await member.getByTestId('flow-place').filter({ hasText: 'Nhóm Nội dung' }).click();
        const card = member.locator(`[data-testid="flow-card"][data-flow-id="${flow.id}"]`);
        await card.waitFor();
        await card.getByTestId('flow-menu').click();
        await member.getByTestId('flow-export').waitFor();
        expect(await member.getByTestId('flow-move').count()).toBe(0);
        expect(await member.getByTestId('flow-delete').count()).toBe(0);
      } finally {
        await others.close();
      }
    });
  },
);
