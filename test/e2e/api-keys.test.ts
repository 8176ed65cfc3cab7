import { afterAll, describe, expect, it } from 'vitest';
import { type FakeGemini, startFakeGemini } from '../support/fake-gemini';
import { type FakeOpenAI, startFakeOpenAI } from '../support/fake-openai';
import { answerConfirmation, missingBrowser, screenshot, signOut, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

describe.skipIf(skipReason !== null)(
  `the API keys page in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let gemini: FakeGemini | undefined;
    let endpoint: FakeOpenAI | undefined;
    // Gemini as the server checks keys with: it refuses one key and takes the others; and an
    // OpenAI-compatible endpoint the server allows users to name.
    const env = useServerAndBrowser(async () => {
      gemini = await startFakeGemini({
        rejectedKeys: ['AIza-revoked-key'],
        unavailableKeys: ['AIza-while-down'],
      });
      endpoint = await startFakeOpenAI({ models: ['own-llama'] });
      return { GOOGLE_GEMINI_BASE_URL: gemini.url, MODEL_ENDPOINT_HOSTS: new URL(endpoint.url).host };
    });
    afterAll(async () => {
      await gemini?.close();
      await endpoint?.close();
    });

    it('refuses a blank field with the one message, adds a key (usage becomes unlimited) and deletes it', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'api-keys-failed-tab');
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'Khoa');
      await page.goto(`${server.url}/api-keys`);
      await page.getByTestId('api-keys-empty').waitFor();
      await page.getByTestId('no-active-key-warning').waitFor();

      await page.getByTestId('add-api-key-button').click();
      const dialog = page.getByTestId('add-api-key-dialog');
      await dialog.waitFor();
      await dialog.getByTestId('api-key-name-input').fill('Gemini cá nhân');
      await dialog.getByTestId('api-key-value-input').fill('   ');
      await dialog.getByTestId('add-api-key-submit').click();
      await expect
        .poll(() => page.getByTestId('toast').textContent())
        .toContain('Vui lòng điền đầy đủ thông tin');
      expect(await page.getByTestId('toast').getAttribute('data-variant')).toBe('destructive');

      // A key Gemini refuses is not saved: its reason shows, the dialog stays open.
      await dialog.getByTestId('api-key-value-input').fill('AIza-revoked-key');
      await dialog.getByTestId('add-api-key-submit').click();
      await expect
        .poll(() => page.getByTestId('toast').textContent())
        .toContain('Gemini không nhận API key này: API key not valid');
      expect(await page.getByTestId('toast').getAttribute('data-variant')).toBe('destructive');
      await screenshot(page, 'api-keys-00-refused');

      await dialog.getByTestId('api-key-value-input').fill('AIza-test-key');
      await dialog.getByTestId('add-api-key-submit').click();
      await expect
        .poll(() => page.getByTestId('toast').textContent())
        .toContain('API key đã được thêm thành công!');
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => page.getByTestId('api-key-item').textContent()).toContain('Gemini cá nhân');
      await expect
        .poll(() => page.getByTestId('usage-remaining').textContent())
        .toBe('Còn lại: Không giới hạn');
      await screenshot(page, 'api-keys-01-added');
      expect(gemini!.keyChecks).toEqual(['AIza-revoked-key', 'AIza-test-key']);

      await page.getByTestId('delete-api-key').click();
      expect(await answerConfirmation(page, true)).toBe('Bạn có chắc muốn xóa API key này?');
      await expect.poll(() => page.getByTestId('toast').textContent()).toContain('API key đã được xóa');
      await page.getByTestId('api-keys-empty').waitFor();
      await signOut(page, server.url);
      await page.close();
    });

    it('adds an OpenAI-compatible key with its base URL, which the list shows beside its provider', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'api-keys-endpoint-failed-tab');
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'Minh');
      await page.goto(`${server.url}/api-keys`);
      await page.getByTestId('api-keys-empty').waitFor();

      await page.getByTestId('add-api-key-button').click();
      const dialog = page.getByTestId('add-api-key-dialog');
      await dialog.waitFor();
      // The base URL field is there for an OpenAI-compatible key only.
      expect(await dialog.getByTestId('api-key-base-url-input').count()).toBe(0);
      await dialog.getByTestId('api-key-type-select').selectOption('openai-compatible');
      await dialog.getByTestId('api-key-base-url-input').waitFor();
      await dialog.getByTestId('api-key-name-input').fill('Máy chủ riêng');
      await dialog.getByTestId('api-key-value-input').fill('sk-minh-endpoint');
      await dialog.getByTestId('add-api-key-submit').click();
      await expect.poll(() => page.getByTestId('toast').textContent()).toContain('cần có base URL');

      await dialog.getByTestId('api-key-base-url-input').fill(endpoint!.url);
      await dialog.getByTestId('add-api-key-submit').click();
      await expect
        .poll(() => page.getByTestId('toast').textContent())
        .toContain('API key đã được thêm thành công!');
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => page.getByTestId('api-key-type').textContent()).toBe('OpenAI-compatible');
      expect(await page.getByTestId('api-key-base-url').textContent()).toBe(endpoint!.url);
      await screenshot(page, 'api-keys-02-endpoint');
      expect(endpoint!.requests.map((request) => request.apiKey)).toEqual(['sk-minh-endpoint']);
      await page.close();
    });

    it('marks a key saved while its provider could not be asked as not checked yet', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'api-keys-unchecked-failed-tab');
      const page = await browser.newPage();
      // The browser is still signed in as the test before's person.
      await signOut(page, server.url);
      await signUpInBrowser(page, server.url, 'Lan');
      await page.goto(`${server.url}/api-keys`);
      await page.getByTestId('api-keys-empty').waitFor();
      await page.getByTestId('add-api-key-button').click();
      const dialog = page.getByTestId('add-api-key-dialog');
      await dialog.waitFor();
      await dialog.getByTestId('api-key-name-input').fill('Gemini lúc bảo trì');
      await dialog.getByTestId('api-key-value-input').fill('AIza-while-down');
      await dialog.getByTestId('add-api-key-submit').click();
      await expect
        .poll(() => page.getByTestId('toast').textContent())
        .toContain('Đã lưu API key (chưa kiểm tra)');
      await dialog.waitFor({ state: 'detached' });
      const badge = page.getByTestId('api-key-unchecked');
      await expect.poll(() => badge.textContent()).toBe('Chưa kiểm tra');
      expect(await badge.getAttribute('title')).toContain('kiểm tra ở lần dùng đầu tiên');
      await screenshot(page, 'api-keys-03-unchecked');
      await page.close();
    });
  },
);
