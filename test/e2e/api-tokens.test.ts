import { describe, expect, it } from 'vitest';
import { answerConfirmation, missingBrowser, screenshot, signOut, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

describe.skipIf(skipReason !== null)(
  `the API tokens page in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it('makes a token, shown once, that works on the API and is listed; revoking it stops it', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'api-tokens-failed-tab');
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'Tâm');
      // Reached from the Keys page of the navigation.
      await page.goto(`${server.url}/api-keys`);
      await page.getByTestId('api-tokens-link').click();
      await page.getByTestId('api-tokens-empty').waitFor();

      await page.getByTestId('create-api-token-button').click();
      const dialog = page.getByTestId('create-api-token-dialog');
      await dialog.waitFor();
      await dialog.getByTestId('api-token-name-input').fill('Script hằng đêm');
      await dialog.getByTestId('api-token-scope-run').click();
      await dialog.getByTestId('api-token-expiry-select').selectOption('30');
      await dialog.getByTestId('api-token-submit').click();

      const shown = dialog.getByTestId('api-token-value');
      await shown.waitFor();
      const token = (await shown.textContent()) ?? '';
      expect(token).toMatch(/^wb_pat_/);
      expect(await dialog.textContent()).toContain('sẽ không được hiển thị lại');
      await screenshot(page, 'api-tokens-00-made');

      // The token itself calls the API, without the browser's cookie.
      const flows = await fetch(`${server.url}/api/flows`, { headers: { authorization: `Bearer ${token}` } });
      expect(flows.status).toBe(200);

      await dialog.getByTestId('api-token-done').click();
      await dialog.waitFor({ state: 'detached' });
      const item = page.getByTestId('api-token-item');
      await expect.poll(() => item.textContent()).toContain('Script hằng đêm');
      expect(await item.getByTestId('api-token-scopes').textContent()).toContain('Chạy (run)');
      expect(await item.getByTestId('api-token-where').textContent()).toBe('Cá nhân');
      expect(await page.textContent('body')).not.toContain(token);
      await screenshot(page, 'api-tokens-01-listed');

      await page.getByTestId('revoke-api-token').click();
      expect(await answerConfirmation(page, true)).toBe(
        'Bạn có chắc muốn thu hồi token này? Mọi script đang dùng nó sẽ bị từ chối ngay lập tức.',
      );
      await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Token đã được thu hồi');
      await page.getByTestId('api-tokens-empty').waitFor();
      const refused = await fetch(`${server.url}/api/flows`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(refused.status).toBe(401);
      await signOut(page, server.url);
      await page.close();
    });
  },
);
