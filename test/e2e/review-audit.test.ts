import { type APIRequestContext, request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, missingBrowser, screenshot, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

/** A reviewer who decides through the API only, with a session of their own. */
async function reviewer(baseUrl: string, firstName: string) {
  const api = await request.newContext({ baseURL: baseUrl, extraHTTPHeaders: { origin: baseUrl } });
  const email = `reviewer-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const response = await api.post('/api/auth/register', {
    data: { email, password: 'correct horse battery', firstName, lastName: 'Lê' },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return { api, email, id: ((await response.json()) as { id: string }).id };
}

async function call(api: APIRequestContext, method: 'POST' | 'PUT', path: string, data: unknown) {
  const response = await api.fetch(path, { method, data });
  expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
  return response.json();
}

describe.skipIf(skipReason !== null)(
  `the reviews in an execution's history${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it('shows who was asked, each decision with its comment or reason, and the text each decider saw', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'review-audit-failed-tab');
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'An');
      const ana = await reviewer(server.url, 'Ánh');
      const bao = await reviewer(server.url, 'Bảo');
      const workspace = await callApi(page, server.url, 'POST', '/api/workspaces', { name: 'Nhóm' });
      for (const person of [ana, bao]) {
        const invited = await callApi(
          page,
          server.url,
          'POST',
          `/api/workspaces/${workspace.id}/invitations`,
          {
            email: person.email,
            role: 'reviewer',
          },
        );
        await call(person.api, 'POST', `/api/invitations/${invited.acceptUrl.split('/').at(-1)}/accept`, {});
      }
      const flow = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Bài về trà',
        description: 'Một bước',
        workspaceId: workspace.id,
      });
      const step = await callApi(page, server.url, 'POST', '/api/steps', {
        flowId: flow.id,
        name: 'Bản nháp',
        order: 1,
        systemPrompt: 'Write a short post about tea.',
        review: { by: 'members', userIds: [ana.id, bao.id], approvals: 2 },
      });
      const execution = await callApi(page, server.url, 'POST', `/api/flows/${flow.id}/execute`);
      const execute = () =>
        callApi(page, server.url, 'POST', `/api/executions/${execution.id}/steps/${step.id}/execute`, {});

      // Bảo rejects the first draft; Ánh approves the second as it came; Bảo shortens it, which voids her
      // approval and asks them again; both approve the shorter text.
      const first = await execute();
      await call(bao.api, 'POST', `/api/reviews/${first.execution.reviews[0].id}/reject`, {
        reason: 'Dài quá, cắt một nửa',
      });
      const second = await execute();
      const review = second.execution.reviews.find((r: { status: string }) => r.status === 'pending');
      await call(ana.api, 'POST', `/api/reviews/${review.id}/approve`, { comment: 'Ổn' });
      await call(bao.api, 'PUT', `/api/step-results/${second.results[0].id}`, { result: 'Trà, ngắn gọn.' });
      const shown = await callApi(page, server.url, 'GET', `/api/executions/${execution.id}`);
      const again = shown.reviews.at(-1).id;
      await call(bao.api, 'POST', `/api/reviews/${again}/approve`, {});
      await call(ana.api, 'POST', `/api/reviews/${again}/approve`, { comment: 'Gọn rồi' });

      await page.goto(`${server.url}/flows/${flow.id}?mode=run`);
      await page.getByTestId('open-history').click();
      const section = page.getByTestId('history-dialog').getByTestId('history-reviews');
      await section.waitFor();
      const reviews = section.getByTestId('review-audit');
      await expect.poll(() => reviews.count()).toBe(3);
      expect(await reviews.getByTestId('review-audit-status').allTextContents()).toEqual([
        'Rejected',
        'Đã rút lại',
        'Approved',
      ]);
      expect(await reviews.first().getByTestId('review-audit-asked').textContent()).toBe(
        'Người được chỉ định: Ánh, Bảo · cần 2 người approve',
      );
      expect(await reviews.first().textContent()).toContain('Yêu cầu bởi An');
      expect(await reviews.first().getByTestId('review-audit-waited').textContent()).toMatch(
        /^Chờ .+ đến quyết định cuối$/,
      );
      expect(await section.getByTestId('review-audit-text').allTextContents()).toEqual([
        'Lý do: Dài quá, cắt một nửa',
        'Nhận xét: Ổn',
        'Nhận xét: Gọn rồi',
      ]);
      await screenshot(page, 'review-audit-01-history');
      // What each decider saw: Ánh the draft as it came (an approval the edit voided), then both the edit.
      const seenIn = async (index: number) => {
        const decisions = reviews.nth(index).getByTestId('review-audit-decision');
        for (const summary of await decisions.locator('summary').all()) await summary.click();
        return decisions.getByTestId('review-audit-seen').locator('pre').allTextContents();
      };
      expect(await seenIn(1)).toEqual([second.results[0].result]);
      expect(await seenIn(2)).toEqual(['Trà, ngắn gọn.', 'Trà, ngắn gọn.']);
      await screenshot(page, 'review-audit-02-seen');

      // Ánh's last approval rewritten in the database: the section no longer tells it, nor the review, as fact.
      const audit = await callApi(page, server.url, 'GET', `/api/executions/${execution.id}/reviews/audit`);
      const forged = audit[2].decisions[1];
      await env.database.sql`
        UPDATE events SET data = jsonb_set(data, '{comment}', '"Đã sửa"')
        WHERE stream_id = ${`execution-${execution.id}`} AND stream_position = ${forged.position}`;
      await page.keyboard.press('Escape');
      await page.getByTestId('history-dialog').waitFor({ state: 'detached' });
      await page.getByTestId('open-history').click();
      await section.waitFor();
      const decisions = section.getByTestId('review-audit-decision');
      await expect
        .poll(() => decisions.evaluateAll((all) => all.map((d) => (d as HTMLElement).dataset.verified)))
        .toEqual(['true', 'true', 'true', 'false']);
      expect(await decisions.nth(3).getByTestId('review-audit-decision-unverified').textContent()).toBe(
        'không xác minh được',
      );
      expect(await decisions.nth(2).getByTestId('review-audit-decision-unverified').count()).toBe(0);
      expect(await reviews.nth(2).getByTestId('review-audit-unverified').count()).toBe(1);
      expect(await reviews.nth(0).getByTestId('review-audit-unverified').count()).toBe(0);
      await decisions.nth(3).scrollIntoViewIfNeeded();
      await screenshot(page, 'review-audit-03-record-changed');

      // The run screen's panel of the step's review: its outcome struck through and marked, not told as fact.
      await page.goto(`${server.url}/flows/${flow.id}?mode=run`);
      const panel = page.getByTestId(`step-review-approved-${step.id}`);
      await panel.getByTestId('step-review-unverified').waitFor();
      expect(await panel.getByTestId('step-review-unverified').textContent()).toBe('không xác minh được');
      await screenshot(page, 'review-audit-04-run-screen');
      await ana.api.dispose();
      await bao.api.dispose();
    });
  },
);
