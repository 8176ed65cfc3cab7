import { afterAll, describe, expect, it } from 'vitest';
import { type FakeGemini, startFakeGemini } from '../support/fake-gemini';
import { callApi, missingBrowser, screenshot, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

/** Forty numbered words: the fake streams three words per chunk, so the answer takes a few seconds. */
const ANSWER = Array.from({ length: 40 }, (_, i) => `word${i + 1}`).join(' ');

describe.skipIf(skipReason !== null)(
  `token streaming in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let gemini: FakeGemini | undefined;
    const env = useServerAndBrowser(async () => {
      gemini = await startFakeGemini({ respond: () => ({ text: ANSWER, chunkDelayMs: 250 }) });
      return { GEMINI_API_KEY: 'server-test-key', GOOGLE_GEMINI_BASE_URL: gemini.url };
    });
    afterAll(() => gemini?.close());

    it('shows the answer token by token while the model writes, survives a reload mid-run, then shows the stored result', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'streaming-failed-tab');
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'Bình', 'Trần');

      // The flow and its step through the API, with the browser's own session.
      const flow = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Streaming',
        description: 'Một step dài',
      });
      await callApi(page, server.url, 'POST', '/api/steps', {
        flowId: flow.id,
        name: 'Long answer',
        order: 1,
        systemPrompt: 'Count to forty.',
      });

      await page.goto(`${server.url}/flows/${flow.id}?mode=run`);
      await page.getByTestId('execute-step-1').click();

      // Tokens arrive over the websocket before the run ends: the text grows while it is shown.
      const streamed = page.getByTestId('streaming-text');
      await expect.poll(() => streamed.textContent(), { timeout: 10_000 }).toContain('word1');
      const early = (await streamed.textContent()) ?? '';
      expect(early).not.toContain('word40');
      await expect
        .poll(async () => ((await streamed.textContent()) ?? '').length, { timeout: 10_000 })
        .toBeGreaterThan(early.length);
      await screenshot(page, 'streaming-01-tokens');

      // A reload mid-run shows the run as running, then its result.
      await page.reload();
      const running = page.getByTestId('step-running-1');
      await running.waitFor({ timeout: 10_000 });
      // The text so far comes with the subscription: the answer shows from its first word again.
      await expect
        .poll(() => page.getByTestId('streaming-text').textContent(), { timeout: 5_000 })
        .toMatch(/^word1 word2 word3/);
      await screenshot(page, 'streaming-02-reloaded-running');
      const results = page.getByTestId('step-results-1');
      await expect.poll(() => results.textContent(), { timeout: 20_000 }).toContain('word40');
      await expect.poll(() => running.count()).toBe(0);
      await screenshot(page, 'streaming-03-result');
      expect(gemini?.requests).toHaveLength(1);
    });
  },
);
