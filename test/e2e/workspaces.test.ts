import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type Browser, callApi, missingBrowser, openBrowser, screenshot, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

/** Registers on the sign-in page the app sent the browser to, as signUpInBrowser does from the start. */
async function registerHere(page: Page, firstName: string, email: string) {
  await page.locator('summary').click();
  await page.fill('#register-last-name', 'Trần');
  await page.fill('#register-first-name', firstName);
  await page.fill('#register-email', email);
  await page.fill('#register-password', 'correct horse battery');
  await page.getByTestId('register-submit').click();
}

describe.skipIf(skipReason !== null)(
  `workspaces in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it('an owner makes a workspace and invites an auditor, who accepts and audits a run read-only', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'workspaces-failed-owner');
      const owner = await browser.newPage();
      await signUpInBrowser(owner, server.url, 'An');

      // The Workspaces page from the navigation bar: none yet, then one made with the form.
      await owner.getByTestId('navigation-bar').locator('a[href="/workspaces"]').click();
      await owner.getByTestId('workspaces-empty').waitFor();
      expect(await owner.locator('h1').textContent()).toBe('Workspaces');
      await owner.getByTestId('workspace-name-input').fill('Nhóm Marketing');
      await owner.getByTestId('create-workspace-submit').click();
      const card = owner.getByTestId('workspace-card');
      await card.waitFor();
      expect(await card.getByTestId('workspace-role').textContent()).toBe('Owner');
      await screenshot(owner, 'workspaces-01-list');

      // Its page: the name, the owner's role, and a flow made in it.
      await card.getByTestId('workspace-link').click();
      await owner.getByTestId('workspace-page').waitFor();
      expect(await owner.getByTestId('workspace-name').textContent()).toBe('Nhóm Marketing');
      expect(await owner.getByTestId('workspace-my-role').getAttribute('data-role')).toBe('owner');
      const workspaceId = new URL(owner.url()).pathname.split('/')[2]!;
      await owner.getByTestId('workspace-create-flow').click();
      await owner.getByTestId('flow-name-input').fill('Bài blog chung');
      await owner.getByTestId('flow-description-input').fill('Ý tưởng rồi bản nháp');
      await owner.getByTestId('create-flow-submit').click();
      const flowCard = owner.getByTestId('workspace-flow');
      await flowCard.waitFor();
      const flowId = (await flowCard.getAttribute('data-flow-id'))!;
      const flow = await callApi(owner, server.url, 'GET', `/api/flows/${flowId}`);
      expect(flow.workspaceId).toBe(workspaceId);
      await screenshot(owner, 'workspaces-02-flows');

      // The flows list offers Mine (first, shown) and the workspace, which holds the new flow.
      await owner.getByTestId('navigation-bar').locator('a[href="/flows"]').click();
      await owner.getByTestId('flow-places').waitFor();
      expect(await owner.getByTestId('flow-place').allTextContents()).toEqual(['Mine', 'Nhóm Marketing']);
      expect(await owner.getByTestId('flow-place').first().getAttribute('aria-pressed')).toBe('true');
      await owner.getByTestId('flow-place').filter({ hasText: 'Nhóm Marketing' }).click();
      await owner.locator(`[data-testid="flow-card"][data-flow-id="${flowId}"]`).waitFor();
      await screenshot(owner, 'workspaces-03-flows-list');

      // A flow of the owner's own moves into the workspace from its card's menu, and back to Mine.
      await owner.getByTestId('flow-place').filter({ hasText: 'Mine' }).click();
      await owner.getByTestId('create-flow-button').click();
      await owner.getByTestId('flow-name-input').fill('Ghi chú riêng');
      await owner.getByTestId('flow-description-input').fill('Của riêng An');
      await owner.getByTestId('create-flow-submit').click();
      const ownCard = owner.getByTestId('flow-card').filter({ hasText: 'Ghi chú riêng' });
      await ownCard.waitFor();
      const own = { id: (await ownCard.getAttribute('data-flow-id'))! };
      expect((await callApi(owner, server.url, 'GET', `/api/flows/${own.id}`)).workspaceId).toBeNull();
      await ownCard.getByTestId('flow-menu').click();
      await owner.getByTestId('flow-move').filter({ hasText: 'Nhóm Marketing' }).click();
      await ownCard.waitFor({ state: 'detached' });
      expect((await callApi(owner, server.url, 'GET', `/api/flows/${own.id}`)).workspaceId).toBe(workspaceId);
      await owner.getByTestId('flow-place').filter({ hasText: 'Nhóm Marketing' }).click();
      await ownCard.getByTestId('flow-menu').click();
      expect(await owner.getByTestId('flow-move').allTextContents()).toEqual(['Mine']);
      await screenshot(owner, 'workspaces-03b-move-menu');
      await owner.getByTestId('flow-move').click();
      await ownCard.waitFor({ state: 'detached' });
      expect((await callApi(owner, server.url, 'GET', `/api/flows/${own.id}`)).workspaceId).toBeNull();

      // The owner runs the workspace's flow: one step, an execution started.
      const step = await callApi(owner, server.url, 'POST', '/api/steps', {
        flowId,
        order: 1,
        name: 'Ý tưởng',
        systemPrompt: 'Gợi ý ý tưởng',
      });
      expect(step.flowId).toBe(flowId);
      const execution = await callApi(owner, server.url, 'POST', `/api/flows/${flowId}/execute`, {});
      expect(execution.workspaceId).toBe(workspaceId);
      await callApi(
        owner,
        server.url,
        'POST',
        `/api/executions/${execution.id}/steps/${step.id}/execute`,
        {},
      );

      // The auditor-to-be has an account; its address is the one invited.
      const second: Browser = await openBrowser();
      try {
        screenshotTabsOnFailure(second, 'workspaces-failed-auditor');
        const auditor = await second.newPage();
        const email = `auditor-${Date.now()}@example.com`;

        // Members: the owner invites by address and role, and reads the link to pass on.
        await owner.goto(`${server.url}/workspaces/${workspaceId}?tab=members`);
        await owner.getByTestId('invite-form').waitFor();
        await owner.getByTestId('invite-email').fill(email);
        await owner.getByTestId('invite-role').selectOption('auditor');
        await owner.getByTestId('invite-submit').click();
        const link = owner.getByTestId('invitation-accept-url');
        await link.waitFor();
        const acceptUrl = await link.inputValue();
        expect(new URL(acceptUrl).pathname).toMatch(/^\/invitations\/[A-Za-z0-9_-]{43}$/);
        expect(await owner.getByTestId('invitation-expires').textContent()).toContain('Hết hạn lúc');
        await screenshot(owner, 'workspaces-04-members-invite');

        // The invitation waits among the pending ones, with who made it; one made by mistake is revoked there.
        const pendingEmails = () => owner.getByTestId('pending-invitation-email').allTextContents();
        await expect.poll(pendingEmails).toEqual([email]);
        expect(await owner.getByTestId('pending-invitation').first().textContent()).toContain('An Nguyễn');
        const mistaken = `mistaken-${Date.now()}@example.com`;
        await owner.getByTestId('invite-email').fill(mistaken);
        await owner.getByTestId('invite-submit').click();
        await expect.poll(pendingEmails).toEqual([mistaken, email]);
        await owner
          .getByTestId('pending-invitation')
          .filter({ hasText: mistaken })
          .getByTestId('pending-invitation-revoke')
          .click();
        const confirmation = owner.getByTestId('confirm-dialog');
        await confirmation.waitFor();
        expect(await confirmation.getByTestId('confirm-dialog-question').textContent()).toContain(mistaken);
        await screenshot(owner, 'workspaces-04b-revoke-invitation');
        await confirmation.getByTestId('confirm-dialog-confirm').click();
        await expect.poll(pendingEmails).toEqual([email]);
        const pendingNow = await callApi(
          owner,
          server.url,
          'GET',
          `/api/workspaces/${workspaceId}/invitations`,
        );
        expect(pendingNow.map((invitation: { email: string }) => invitation.email)).toEqual([email]);

        // Signed out, the link asks for sign-in and comes back to it.
        const invitationPath = new URL(acceptUrl).pathname;
        await auditor.goto(`${server.url}${invitationPath}`);
        await auditor.getByTestId('login-form').waitFor();
        expect(new URL(auditor.url()).searchParams.get('next')).toBe(invitationPath);
        await registerHere(auditor, 'Bình', email);
        await auditor.getByTestId('invitation-page').waitFor();
        // Before accepting: which workspace, who invited, in which role.
        const details = auditor.getByTestId('invitation-details');
        await details.waitFor();
        expect(await details.textContent()).toContain('mời bạn vào workspace “');
        expect(await auditor.getByTestId('invitation-role').textContent()).toContain('Vai trò: Auditor');
        await screenshot(auditor, 'workspaces-05-invitation');
        await auditor.getByTestId('invitation-accept').click();

        // Accepted: the workspace's page, as an auditor, who sees the members but manages none.
        await auditor.getByTestId('workspace-page').waitFor();
        expect(new URL(auditor.url()).pathname).toBe(`/workspaces/${workspaceId}`);
        expect(await auditor.getByTestId('workspace-my-role').getAttribute('data-role')).toBe('auditor');
        expect(await auditor.getByTestId('workspace-create-flow').count()).toBe(0);
        await auditor.getByTestId('workspace-tab-members').click();
        await expect.poll(() => auditor.getByTestId('member-row').count()).toBe(2);
        expect(await auditor.getByTestId('invite-form').count()).toBe(0);
        expect(await auditor.getByTestId('member-role-select').count()).toBe(0);

        // Executions: the owner's run, by flow and person; it opens its history.
        await auditor.getByTestId('workspace-tab-executions').click();
        const row = auditor.locator(`[data-testid="execution-row"][data-execution-id="${execution.id}"]`);
        await row.waitFor();
        expect(await row.textContent()).toContain('Bài blog chung');
        expect(await row.textContent()).toContain('An');
        await auditor.getByTestId('filter-status').selectOption('failed');
        await auditor.getByTestId('executions-empty').waitFor();
        await auditor.getByTestId('filter-status').selectOption('');
        await auditor.getByTestId('filter-person').selectOption({ label: 'An Nguyễn' });
        await row.waitFor();
        await screenshot(auditor, 'workspaces-06-executions');
        await row.getByTestId('execution-open').click();
        const history = auditor.getByTestId('history-dialog');
        await history.waitFor();
        await history.getByTestId('history-state-pane').waitFor();
        await screenshot(auditor, 'workspaces-07-execution-history');
        // The place for the next step: replaying the run and downloading its audit file.
        await checkReplayAndAuditFile(auditor, execution.id);
        await auditor.keyboard.press('Escape');
        await history.waitFor({ state: 'hidden' });

        // The run itself, read-only: no run, stop, reset or step controls, no result review, no flow edits.
        await row.getByTestId('execution-flow-link').click();
        await auditor.getByTestId('run-mode').waitFor();
        await auditor.getByTestId('execution-queue').waitFor();
        await auditor.getByTestId('step-card-1').waitFor();
        // The owner's result is there to read, not to review.
        await auditor.getByTestId('step-results-1').waitFor();
        await auditor.getByTestId('result-label').first().waitFor();
        for (const control of [
          'execute-all',
          'execute-step-1',
          'step-list-run-1',
          'stop-execution',
          'reset-execution',
          'add-step-button',
          'mode-chat',
          'mode-master',
          'open-suggestions',
        ]) {
          expect(await auditor.getByTestId(control).count(), control).toBe(0);
        }
        expect(await auditor.locator('[data-testid^="approve-"]').count()).toBe(0);
        expect(await auditor.getByTestId('flow-read-only').textContent()).toBe('Chỉ xem');
        await screenshot(auditor, 'workspaces-08-run-read-only');
        await auditor.getByTestId('mode-edit').click();
        await auditor.getByTestId('edit-mode').waitFor();
        expect(await auditor.getByTestId('edit-add-step').count()).toBe(0);
        expect(await auditor.getByTestId('delete-step').count()).toBe(0);
        expect(await auditor.getByTestId('flow-details-name').isDisabled()).toBe(true);

        // Made a reviewer by the owner, the same person approves, edits and rejects results, and still runs nothing.
        const auditorId = (await callApi(auditor, server.url, 'GET', '/api/auth/user')).id;
        await owner.goto(`${server.url}/workspaces/${workspaceId}?tab=members`);
        // Accepted, the invitation is no longer pending.
        await owner.getByTestId('pending-invitations-empty').waitFor();
        const member = owner.locator(`[data-testid="member-row"][data-user-id="${auditorId}"]`);
        await member.getByTestId('member-role-select').selectOption('reviewer');
        await expect
          .poll(
            async () =>
              (await callApi(owner, server.url, 'GET', `/api/workspaces/${workspaceId}/members`)).find(
                (m: { userId: string }) => m.userId === auditorId,
              )?.role,
          )
          .toBe('reviewer');
        await auditor.goto(`${server.url}/flows/${flowId}?mode=run`);
        await auditor.getByTestId('step-results-1').waitFor();
        await auditor.locator('[data-testid^="approve-"]').first().waitFor();
        expect(await auditor.getByTestId('execute-step-1').count()).toBe(0);
        expect(await auditor.getByTestId('stop-execution').count()).toBe(0);
        expect(await auditor.getByTestId('flow-read-only').count()).toBe(0);
        await screenshot(auditor, 'workspaces-08b-run-reviewer');

        // The link works once: opened again, it says at once that it is no longer valid.
        await auditor.goto(acceptUrl);
        const invalid = auditor.getByTestId('invitation-invalid');
        await invalid.waitFor();
        expect(await invalid.textContent()).toContain('Lời mời này không còn hiệu lực');
        await screenshot(auditor, 'workspaces-09-invitation-invalid');
      } finally {
        await second.close();
      }
    });
  },
);

/**
 * The auditor replays the run and downloads its record: the history says it is verified by its hashes, an
 * earlier point shows the run as it stood then, and the CSV audit file downloads with every event and its
 * hash, ending with the head the screen shows.
 */
async function checkReplayAndAuditFile(page: Page, executionId: string) {
  const dialog = page.getByTestId('history-dialog');
  const verified = dialog.getByTestId('history-record-verified');
  await verified.waitFor();
  expect(await verified.textContent()).toMatch(/^Verified · \d+ sự kiện · hash cuối [0-9a-f]{12}$/);
  const head = await verified.locator('code').getAttribute('title');
  expect(head).toMatch(/^[0-9a-f]{64}$/);

  // Replay: the first point is the run as it started, before any step ran.
  const state = dialog.getByTestId('history-state');
  await dialog.locator('[data-testid="history-entry"][data-position="1"]').click();
  await expect.poll(() => state.getAttribute('data-position')).toBe('1');
  expect(await state.getByTestId('history-result').count()).toBe(0);
  await screenshot(page, 'workspaces-07b-replayed');

  // The audit file, as the browser downloads it.
  const link = dialog.getByTestId('history-audit-csv');
  expect(await link.getAttribute('href')).toBe(`/api/executions/${executionId}/audit?format=csv`);
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const file = await readFile((await download.path())!, 'utf8');
  const lines = file.trimEnd().split('\r\n');
  expect(lines[0]).toBe('position,time,actor_id,actor,type,summary,hash');
  expect(lines[1]).toMatch(/^1,.*,ExecutionStarted,/);
  expect(lines.at(-1)!.endsWith(`,${head}`)).toBe(true);
}
