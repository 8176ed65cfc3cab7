import { describe, expect, it } from 'vitest';
import { missingBrowser, screenshot } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

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
  },
);
