import { describe, expect, it } from 'vitest';
import { missingBrowser, screenshot, signOut, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

describe.skipIf(skipReason !== null)(
  `the API docs in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it('signs in first when opened signed out, then comes back to them; so does any page of the app', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'deep-link-failed-tab');
      const page = await browser.newPage();
      await page.goto(`${server.url}/api/docs/`);
      await page.getByTestId('login-form').waitFor();
      expect(new URL(page.url()).searchParams.get('next')).toBe('/api/docs/');
      await screenshot(page, 'deep-link-01-sign-in');
      // A new account made on that page goes on to the docs too.
      await page.locator('summary').click();
      await page.fill('#register-last-name', 'Nguyễn');
      await page.fill('#register-first-name', 'Hoa');
      await page.fill('#register-email', `hoa-${Date.now()}@example.com`);
      await page.fill('#register-password', 'correct horse battery');
      await page.getByTestId('register-submit').click();
      await page.locator('.swagger-ui .opblock').first().waitFor();
      expect(new URL(page.url()).pathname).toBe('/api/docs/');

      // Signed out again, a page of the app with its query: sign-in, and back to exactly that page.
      await signOut(page, server.url);
      await page.goto(`${server.url}/sessions?from=link`);
      await page.getByTestId('login-form').waitFor();
      const email = await page.evaluate(async (origin) => {
        const address = `back-${Date.now()}@example.com`;
        await fetch(`${origin}/api/auth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            email: address,
            password: 'correct horse battery',
            firstName: 'B',
            lastName: 'C',
          }),
        });
        await fetch(`${origin}/api/logout`);
        return address;
      }, server.url);
      await page.fill('#login-email', email);
      await page.fill('#login-password', 'correct horse battery');
      await page.getByTestId('login-submit').click();
      await page.getByTestId('sessions-page').waitFor();
      const back = new URL(page.url());
      expect(`${back.pathname}${back.search}`).toBe('/sessions?from=link');
      // The browser is shared with the next test, which signs up anew.
      await signOut(page, server.url);
      await page.close();
    });

    it('shows every documented call, under the app’s Content-Security-Policy', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'api-docs-failed-tab');
      const page = await browser.newPage();
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
      });
      await signUpInBrowser(page, server.url, 'Lan');

      await page.goto(`${server.url}/api/docs/`);
      await page.locator('.swagger-ui .opblock').first().waitFor();
      const operations = await page.locator('.swagger-ui .opblock').count();
      expect(operations).toBeGreaterThan(50);
      expect(await page.locator('.swagger-ui .info .title').textContent()).toContain(
        'Prompt flow workbench API',
      );
      await page.locator('.opblock-summary-path[data-path="/api/flows"]').first().waitFor();
      await screenshot(page, 'api-docs-01-operations');
      expect(refused).toEqual([]);
    });
  },
);
