import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, missingBrowser, screenshot, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

const pathOf = (page: Page) => new URL(page.url()).pathname;

/** Opens a route and waits until the app has left its loading screen. */
async function open(page: Page, url: string) {
  await page.goto(url);
  await page.getByTestId('navigation-bar').waitFor();
}

describe.skipIf(skipReason !== null)(
  `the route table in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    // Every screen of the app, one after another: well over the minute a browser test gets on a busy machine.
    it('shows the landing page and 404s signed out, every screen signed in, and the navigation bar of each', {
      timeout: 180_000,
    }, async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'routes-failed-tab');
      const page = await browser.newPage();

      // While the sign-in state loads: 'Đang tải...' over the whole screen, and nothing else.
      let releaseUser: () => void = () => {};
      const userHeld = new Promise<void>((resolve) => {
        releaseUser = resolve;
      });
      await page.route('**/api/auth/user', async (route) => {
        await userHeld;
        await route.continue();
      });
      await page.goto(`${server.url}/`);
      await page.getByTestId('app-loading').waitFor();
      expect(await page.getByTestId('app-loading').textContent()).toBe('Đang tải...');
      expect(await page.getByTestId('navigation-bar').count()).toBe(0);
      await screenshot(page, 'routes-01-loading');
      releaseUser();
      await page.getByTestId('landing-page').waitFor();
      await page.unroute('**/api/auth/user');

      // Signed out: the landing page with sign-in buttons to the server's page, and only a login button.
      const signInLinks = await page.locator('a[href="/api/login"]').count();
      expect(signInLinks).toBeGreaterThanOrEqual(2);
      expect(await page.getByTestId('login-button').getAttribute('href')).toBe('/api/login');
      expect(await page.getByTestId('logout-button').count()).toBe(0);
      expect(await page.getByTestId('navigation-bar').locator('a[href="/flows"]').count()).toBe(0);
      // A page that needs sign-in, opened signed out: the sign-in page, which will come back to it.
      for (const route of ['/flows', '/sessions?tab=1', '/workspaces', '/invitations/some-token']) {
        await page.goto(`${server.url}${route}`);
        await page.getByTestId('login-form').waitFor();
        const signIn = new URL(page.url());
        expect(signIn.pathname, route).toBe('/api/login');
        expect(signIn.searchParams.get('next'), route).toBe(route);
      }
      await open(page, `${server.url}/flows-static`);
      await page.getByTestId('flows-static-page').waitFor();
      // A page that does not exist is 'Page Not Found' signed out too, not the sign-in page.
      await open(page, `${server.url}/no-such-page`);
      await page.getByTestId('not-found').waitFor();
      expect(await page.locator('h1').textContent()).toBe('Page Not Found');
      expect(pathOf(page)).toBe('/no-such-page');

      // Signed in: the first name in the bar, Flows, Master Mode, Guide, Keys and a logout link.
      await signUpInBrowser(page, server.url, 'Lan');
      const bar = page.getByTestId('navigation-bar');
      expect(await page.getByTestId('user-name').textContent()).toBe('Lan');
      expect(await page.getByTestId('logout-button').getAttribute('href')).toBe('/api/logout');
      expect(await page.getByTestId('nav-logo').getAttribute('href')).toBe('/');
      for (const [href, text] of [
        ['/flows', 'Flows'],
        ['/workspaces', 'Workspaces'],
        ['/reviews', 'Reviews'],
        ['/master-mode', 'Master Mode'],
        ['/guide', 'Guide'],
        ['/api-keys', 'Keys'],
      ]) {
        expect(await bar.locator(`a[href="${href}"]`).textContent()).toBe(text);
      }
      // The links in the bar only on large screens; below, one menu holds them (but Keys, for large screens
      // only), the name and sign-out.
      await expect.poll(() => bar.locator('a[href="/api-keys"]').isVisible()).toBe(true);
      expect(await page.getByTestId('nav-menu-button').isVisible()).toBe(false);
      for (const width of [800, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await expect.poll(() => bar.locator('a[href="/api-keys"]').isVisible()).toBe(false);
        expect(await page.getByTestId('user-name').isVisible()).toBe(false);
        // Nothing in the bar runs past its right edge.
        const overflow = await bar.evaluate((el) => el.scrollWidth - el.clientWidth);
        expect(overflow).toBe(0);
      }
      await page.getByTestId('nav-menu-button').click();
      expect(await page.getByTestId('nav-menu-user').textContent()).toBe('Lan');
      expect(await page.getByTestId('nav-menu-link').allTextContents()).toEqual([
        'Flows',
        'Workspaces',
        'Reviews',
        'Master Mode',
        'Guide',
        'Sessions',
        'Recommendations',
      ]);
      expect(await page.getByTestId('nav-menu-logout').getAttribute('href')).toBe('/api/logout');
      await screenshot(page, 'routes-phone-menu');
      await page.getByTestId('nav-menu-link').filter({ hasText: 'Sessions' }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/sessions');
      await page.setViewportSize({ width: 1280, height: 900 });

      const flow = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Blog về Trà',
        description: 'Ý tưởng rồi bài viết',
        status: 'draft',
      });

      // / and /flows are the flows list; /flows/ without an id goes to /flows.
      for (const route of ['/', '/flows']) {
        await open(page, `${server.url}${route}`);
        await page.getByTestId('flows-page').waitFor();
      }
      await open(page, `${server.url}/flows/`);
      await page.getByTestId('flows-page').waitFor();
      await expect.poll(() => pathOf(page)).toBe('/flows');

      // A flow that does not exist (or is not a flow id at all).
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-flow']) {
        await open(page, `${server.url}/flows/${id}`);
        const missing = page.getByTestId('flow-not-found');
        await missing.waitFor();
        expect(await missing.locator('h1').textContent()).toBe('Flow not found');
        expect(await missing.textContent()).toContain('The requested flow does not exist.');
        expect(await page.getByTestId('back-to-flows').textContent()).toBe('Back to Flows');
        expect(await page.getByTestId('back-to-flows').getAttribute('href')).toBe('/flows');
      }
      await screenshot(page, 'routes-02-flow-not-found');
      await page.getByTestId('back-to-flows').click();
      await page.getByTestId('flows-page').waitFor();
      expect(pathOf(page)).toBe('/flows');

      // The workspace: edit by default, ?mode= picks run, chat or master; the workshop with an id is the same.
      const modes: Array<[string, string]> = [
        [`/flows/${flow.id}`, 'edit-mode'],
        [`/flows/${flow.id}?mode=run`, 'run-mode'],
        [`/flows/${flow.id}?mode=chat`, 'chat-mode'],
        [`/flows/${flow.id}?mode=master`, 'master-mode-of-flow'],
        [`/flows/${flow.id}?mode=other`, 'edit-mode'],
        [`/workshop/${flow.id}`, 'edit-mode'],
        [`/workshop/${flow.id}?mode=run`, 'run-mode'],
        [`/workshop/${flow.id}?mode=chat`, 'chat-mode'],
      ];
      for (const [route, screen] of modes) {
        await open(page, `${server.url}${route}`);
        await page.getByTestId(screen).waitFor();
        // The header (mode switch, Save, Logs, AI Suggestions) shows in edit and run modes only.
        const header = await page.getByTestId('workspace-header').count();
        expect(header, route).toBe(screen === 'edit-mode' || screen === 'run-mode' ? 1 : 0);
      }

      const workspace = await callApi(page, server.url, 'POST', '/api/workspaces', { name: 'Nhóm Trà' });
      // Every other signed-in route has its screen, and anything else is 'Page Not Found'.
      const screens: Array<[string, string, string | null]> = [
        ['/flows-fast', 'flows-fast-page', null],
        [`/flows/${flow.id}/datasets`, 'datasets-page', 'Datasets'],
        ['/datasets/00000000-0000-4000-8000-000000000000', 'dataset-load-failed', null],
        [`/flows/${flow.id}/experiments`, 'experiments-page', 'Experiments'],
        ['/experiments/00000000-0000-4000-8000-000000000000', 'experiment-load-failed', null],
        ['/experiments/compare', 'compare-no-ids', null],
        ['/experiments/compare?ids=00000000-0000-4000-8000-000000000000', 'compare-load-failed', null],
        ['/flows-static', 'flows-static-page', null],
        ['/workshop', 'workshop-page', null],
        ['/sessions', 'sessions-page', 'Quản lý Sessions'],
        ['/recommendations', 'recommendations-page', null],
        ['/api-keys', 'api-keys-page', 'Quản lý API Keys'],
        ['/api-keys/tokens', 'api-tokens-page', 'Quản lý API Tokens'],
        ['/ai-flow-creator', 'ai-flow-creator-page', null],
        ['/guide', 'guide-page', null],
        ['/master-mode', 'master-mode-start', null],
        ['/about', 'about-page', null],
        ['/workspaces', 'workspaces-page', 'Workspaces'],
        ['/reviews', 'reviews-page', null],
        [`/workspaces/${workspace.id}`, 'workspace-page', null],
        [`/workspaces/${workspace.id}?tab=members`, 'workspace-members', null],
        [`/workspaces/${workspace.id}?tab=executions`, 'workspace-executions', null],
        ['/workspaces/00000000-0000-4000-8000-000000000000', 'workspace-not-found', null],
        ['/invitations/some-token', 'invitation-invalid', null],
      ];
      for (const [route, screen, title] of screens) {
        await open(page, `${server.url}${route}`);
        await page.getByTestId(screen).waitFor();
        expect(await page.getByTestId('not-found').count(), route).toBe(0);
        if (title) expect(await page.locator('h1').first().textContent(), route).toBe(title);
      }
      for (const route of ['/no-such-page', '/flows-x', `/flows/${flow.id}/steps`]) {
        await open(page, `${server.url}${route}`);
        await page.getByTestId('not-found').waitFor();
        expect(await page.locator('h1').textContent(), route).toBe('Page Not Found');
      }
      await screenshot(page, 'routes-03-not-found');

      // Logout is a full-page navigation back to the landing page.
      await page.getByTestId('logout-button').click();
      await page.getByTestId('landing-page').waitFor();
      expect(pathOf(page)).toBe('/');
      expect(await page.getByTestId('login-button').count()).toBe(1);
    });
  },
);
