import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { violationsOn } from './axe';
import { callApi, missingBrowser, signUpInBrowser } from './browser';
import { useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

describe.skipIf(skipReason !== null)(
  `accessibility of every screen${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    async function check(page: Page, url: string, ready: string) {
      await page.goto(`${env.server.url}${url}`);
      await page.getByTestId(ready).first().waitFor();
      // Fonts, icons and late data settle before the audit.
      await page.waitForLoadState('networkidle');
      return { url, violations: await violationsOn(page) };
    }

    // Every screen in turn, each audited: minutes on a busy machine.
    it('finds no violation on any screen, signed out and signed in', { timeout: 180_000 }, async () => {
      const page = await env.browser.newPage();
      const found = [];
      found.push(await check(page, '/', 'landing-page'));
      found.push({ ...(await check(page, '/no-such-page', 'not-found')), url: '/no-such-page (signed out)' });
      await page.goto(`${env.server.url}/api/login`);
      await page.locator('form').first().waitFor();
      found.push({ url: '/api/login', violations: await violationsOn(page) });

      await signUpInBrowser(page, env.server.url, 'Lan');
      // The 404 page, signed out (checked above) and signed in.
      found.push(await check(page, '/no-such-page', 'not-found'));
      const flow = await callApi(page, env.server.url, 'POST', '/api/flows', {
        name: 'Bài blog',
        description: 'Từ ý tưởng đến bản nháp',
      });
      const steps = [];
      for (const [i, name] of ['Ý tưởng', 'Bản nháp'].entries()) {
        steps.push(
          await callApi(page, env.server.url, 'POST', '/api/steps', {
            flowId: flow.id,
            order: i + 1,
            name,
            systemPrompt: i === 0 ? 'Gợi ý ý tưởng' : 'Viết từ [[step-1]]',
          }),
        );
      }
      const execution = await callApi(page, env.server.url, 'POST', `/api/flows/${flow.id}/execute`, {});
      await callApi(
        page,
        env.server.url,
        'POST',
        `/api/executions/${execution.id}/steps/${steps[0].id}/execute`,
        {},
      );

      const workspace = await callApi(page, env.server.url, 'POST', '/api/workspaces', { name: 'Nhóm blog' });
      const invitation = await callApi(
        page,
        env.server.url,
        'POST',
        `/api/workspaces/${workspace.id}/invitations`,
        { email: 'khach@example.com', role: 'auditor' },
      );
      const shared = await callApi(page, env.server.url, 'POST', '/api/flows', {
        name: 'Bài blog chung',
        description: 'Của cả nhóm',
        workspaceId: workspace.id,
      });
      await callApi(page, env.server.url, 'POST', `/api/flows/${shared.id}/execute`, {});

      for (const [url, ready] of [
        ['/flows', 'flows-heading'],
        ['/workspaces', 'workspace-card'],
        [`/workspaces/${workspace.id}`, 'workspace-flow'],
        [`/workspaces/${workspace.id}?tab=members`, 'member-row'],
        [`/workspaces/${workspace.id}?tab=executions`, 'execution-row'],
        // Sent to another address: to this user the link says it is no longer valid.
        [new URL(invitation.acceptUrl).pathname, 'invitation-invalid'],
        [`/flows/${flow.id}?mode=edit`, 'edit-mode'],
        [`/flows/${flow.id}?mode=run`, 'run-mode'],
        [`/flows/${flow.id}?mode=chat`, 'chat-mode'],
        [`/flows/${flow.id}?mode=master`, 'flow-workspace'],
        ['/master-mode', 'master-mode-start'],
        ['/guide', 'guide-page'],
        ['/sessions', 'sessions-page'],
        ['/recommendations', 'recommendations-page'],
        ['/api-keys', 'api-keys-page'],
        ['/api-keys/tokens', 'api-tokens-page'],
        ['/ai-flow-creator', 'ai-flow-creator-page'],
        ['/workshop', 'workshop-page'],
        ['/about', 'about-page'],
      ] as const) {
        found.push(await check(page, url, ready));
      }
      const session = await callApi(page, env.server.url, 'POST', '/api/master-mode/standalone', {
        name: 'Bảng tính',
      });
      await callApi(page, env.server.url, 'POST', '/api/master-mode/steps', {
        sessionId: session.id,
        stepName: 'Tóm tắt',
        userInput: 'Trà xanh',
      });
      found.push(await check(page, `/master-mode?sessionId=${session.id}`, 'master-mode-screen'));
      expect(found.filter((screen) => screen.violations.length > 0)).toEqual([]);

      // Run mode with the keyboard alone: Tab reaches every action, and each shows where the focus is.
      await page.goto(`${env.server.url}/flows/${flow.id}?mode=run`);
      await page.getByTestId('run-mode').waitFor();
      const [result] = (await callApi(page, env.server.url, 'GET', `/api/executions/${execution.id}`))
        .results;
      const reached = new Map<string, string>();
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press('Tab');
        const focused = await page.evaluate(() => {
          const element = document.activeElement as HTMLElement | null;
          if (!element) return null;
          const style = getComputedStyle(element);
          const outlined = style.outlineStyle !== 'none' && style.outlineWidth !== '0px';
          return { testId: element.dataset.testid ?? '', shown: outlined || style.boxShadow !== 'none' };
        });
        if (focused?.testId) reached.set(focused.testId, focused.shown ? 'visible' : 'invisible');
      }
      for (const testId of [
        'execute-step-1',
        `approve-${result.id}`,
        `edit-result-${result.id}`,
        `delete-result-${result.id}`,
        'step-header-2',
      ]) {
        expect([testId, reached.get(testId)]).toEqual([testId, 'visible']);
      }
    });
  },
);
