import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  type Browser,
  callApi,
  joinWorkspace,
  missingBrowser,
  openBrowser,
  screenshot,
  signedUpPerson,
  signOut,
  signUpInBrowser,
} from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

const PHONE = { width: 390, height: 844 };

/** The tests share one browser (and its cookies): each signs in anew, the one before signed out. */
async function signedOut(browser: Browser, baseUrl: string) {
  const page = await browser.newPage();
  await signOut(page, baseUrl);
  await page.close();
}

/** Whether the page runs past the right edge of the screen. */
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe.skipIf(skipReason !== null)(
  `screens at their edges in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it('signed out, shows Page Not Found for an unknown path and sends only known pages to sign-in', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'edges-signed-out-failed');
      const page = await browser.newPage();
      for (const route of ['/no-such-page', '/flows-x', '/flows/some-flow/steps', '/api-keys/more']) {
        await page.goto(`${server.url}${route}`);
        const notFound = page.getByTestId('not-found');
        await notFound.waitFor();
        expect(await notFound.locator('h1').textContent(), route).toBe('Page Not Found');
        expect(new URL(page.url()).pathname, route).toBe(route);
        expect(await page.getByTestId('login-button').count(), route).toBe(1);
      }
      await screenshot(page, 'edges-01-signed-out-not-found');
      for (const route of ['/flows', '/api-keys', '/workshop/some-flow', '/invitations/some-token']) {
        await page.goto(`${server.url}${route}`);
        await page.getByTestId('login-form').waitFor();
        const signIn = new URL(page.url());
        expect(signIn.pathname, route).toBe('/api/login');
        expect(signIn.searchParams.get('next'), route).toBe(route);
      }
      await page.close();
    });

    it('has no Keys link in the phone menu, only in the bar of a large screen', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'edges-menu-failed');
      await signedOut(browser, server.url);
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'Mai');
      const bar = page.getByTestId('navigation-bar');
      await expect.poll(() => bar.locator('a[href="/api-keys"]').isVisible()).toBe(true);

      await page.setViewportSize(PHONE);
      await page.getByTestId('nav-menu-button').click();
      await page.getByTestId('nav-menu').waitFor();
      const links = await page.getByTestId('nav-menu-link').allTextContents();
      expect(links).toContain('Flows');
      expect(links).not.toContain('Keys');
      await screenshot(page, 'edges-02-phone-menu');
      await page.close();
    });

    it('fits the members of a workspace, their roles and the pending invitations on a phone', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'edges-members-failed');
      const other = await openBrowser();
      try {
        await signedOut(browser, server.url);
        const owner = await signedUpPerson(browser, server.url, 'Hoàng');
        const member = await signedUpPerson(other, server.url, 'Nguyễn Thị Phương Thảo');
        const workspace = await callApi(owner.page, server.url, 'POST', '/api/workspaces', {
          name: 'Nhóm Nội dung Marketing',
        });
        await joinWorkspace(server.url, owner, workspace.id, member, 'reviewer');
        await callApi(owner.page, server.url, 'POST', `/api/workspaces/${workspace.id}/invitations`, {
          email: 'mot-dia-chi-email-rat-dai-cho-nguoi-duoc-moi@cong-ty-vi-du.example.com',
          role: 'editor',
        });

        const page = owner.page;
        await page.setViewportSize(PHONE);
        await page.goto(`${server.url}/workspaces/${workspace.id}?tab=members`);
        await page.getByTestId('member-list').waitFor();
        await page.getByTestId('pending-invitation-list').waitFor();
        expect(await page.getByTestId('member-row').count()).toBe(2);
        await screenshot(page, 'edges-03-members-phone');
        expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
        // Each member's role select and remove button are on the screen, not past its edge.
        for (const control of ['member-role-select', 'member-remove']) {
          const box = await page.getByTestId(control).last().boundingBox();
          expect(box, control).not.toBeNull();
          expect(box!.x + box!.width, control).toBeLessThanOrEqual(PHONE.width);
        }
        // The member sees the list read-only, on a phone too.
        await member.page.setViewportSize(PHONE);
        await member.page.goto(`${server.url}/workspaces/${workspace.id}?tab=members`);
        await member.page.getByTestId('member-list').waitFor();
        expect(await pageWidth(member.page)).toBeLessThanOrEqual(PHONE.width);
        await page.close();
      } finally {
        await other.close();
      }
    });

    it('keeps the history open while its audit file downloads', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'edges-history-failed');
      await signedOut(browser, server.url);
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'Lan');
      const flow = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Trà sáng',
        description: 'Một bước',
      });
      await callApi(page, server.url, 'POST', '/api/steps', {
        flowId: flow.id,
        order: 1,
        name: 'Ý tưởng',
        systemPrompt: 'Give one idea for a post about tea.',
      });
      await page.goto(`${server.url}/flows/${flow.id}?mode=run`);
      await page.getByTestId('execute-all').click();
      await expect
        .poll(() => page.getByTestId('execution-status').getAttribute('data-status'), { timeout: 30_000 })
        .toBe('completed');

      await page.getByTestId('open-history').click();
      const dialog = page.getByTestId('history-dialog');
      await dialog.getByTestId('history-record-verified').waitFor();
      for (const format of ['json', 'csv']) {
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          dialog.getByTestId(`history-audit-${format}`).click(),
        ]);
        expect(download.suggestedFilename(), format).toMatch(new RegExp(`\\.${format}$`));
        // A close would come from the click's own handler, which runs before the download starts: it is
        // rendered by the next frame the page draws.
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
        expect(await dialog.count(), format).toBe(1);
        expect(await dialog.getAttribute('data-state'), format).toBe('open');
        expect(await dialog.isVisible(), format).toBe(true);
      }
      await screenshot(page, 'edges-04-history-after-download');
      await page.close();
    });

    it('says an invitation link used already was used, with no Accept, even while it loads', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'edges-invitation-failed');
      const other = await openBrowser();
      try {
        const owner = await signedUpPerson(other, server.url, 'Quang');
        await signedOut(browser, server.url);
        const invitee = await signedUpPerson(browser, server.url, 'Vy');
        const workspace = await callApi(owner.page, server.url, 'POST', '/api/workspaces', {
          name: 'Nhóm Trà',
        });
        const { acceptUrl } = await callApi(
          owner.page,
          server.url,
          'POST',
          `/api/workspaces/${workspace.id}/invitations`,
          { email: invitee.email, role: 'editor' },
        );
        const page = invitee.page;
        // Open, it offers Accept once it is read, not before.
        let release: () => void = () => {};
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        await page.route('**/api/invitations/*', async (route) => {
          await held;
          await route.continue();
        });
        await page.goto(acceptUrl);
        await page.getByTestId('invitation-page').waitFor();
        expect(await page.getByTestId('invitation-accept').count()).toBe(0);
        release();
        await page.getByTestId('invitation-accept').waitFor();
        await page.unroute('**/api/invitations/*');
        await page.getByTestId('invitation-accept').click();
        await page.getByTestId('workspace-page').waitFor();

        // Used: come back to in the app (Back), and opened again, it says so and offers no Accept.
        const saysUsed = async () => {
          const used = page.getByTestId('invitation-used');
          await used.waitFor();
          expect(await used.locator('h1').textContent()).toBe('Lời mời đã được dùng');
          expect(await page.getByTestId('invitation-used-text').textContent()).toBe(
            'Bạn đã nhận lời mời vào workspace “Nhóm Trà” rồi. Mỗi link mời chỉ dùng được một lần.',
          );
          expect(await page.getByTestId('invitation-accept').count()).toBe(0);
        };
        await page.goBack();
        await saysUsed();
        await page.goto(acceptUrl);
        await saysUsed();
        await screenshot(page, 'edges-05-invitation-used');
        // Someone else with the link: no longer valid, as before.
        await owner.page.goto(acceptUrl);
        await owner.page.getByTestId('invitation-invalid').waitFor();
        expect(await owner.page.getByTestId('invitation-accept').count()).toBe(0);
      } finally {
        await other.close();
      }
    });
  },
);
