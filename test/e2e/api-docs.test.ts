import { describe, expect, it } from 'vitest';
import { missingBrowser, screenshot, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

describe.skipIf(skipReason !== null)(
  `the API docs in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

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
