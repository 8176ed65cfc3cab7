import { afterAll, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../support/fake-openai';
import { callApi, missingBrowser, screenshot, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

describe.skipIf(skipReason !== null)(
  `the request log of a step run on a picked model${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let openai: FakeOpenAI | undefined;
    const env = useServerAndBrowser(async () => {
      // An OpenAI-compatible endpoint that lists two models and counts its tokens as told.
      openai = await startFakeOpenAI({
        models: ['gpt-4.1-mini', 'gpt-4.1'],
        respond: () => ({ text: 'Trà xanh mát lành, buổi sáng dịu êm.', usage: { input: 42, output: 7 } }),
      });
      return { OPENAI_BASE_URL: openai.url };
    });
    afterAll(() => openai?.close());

    it('shows who answered: provider, model, tokens in and out and the time to the first token', async () => {
      const { server, browser } = env;
      const url = server.url;
      screenshotTabsOnFailure(browser, 'request-log-failed');
      const page = await browser.newPage();
      await signUpInBrowser(page, url, 'Hoa');
      const flow = await callApi(page, url, 'POST', '/api/flows', {
        name: 'Thơ trà',
        description: 'Một câu',
      });
      await callApi(page, url, 'POST', '/api/steps', {
        flowId: flow.id,
        order: 1,
        name: 'Câu thơ',
        systemPrompt: 'Viết một câu về trà xanh.',
      });

      // Edit mode: the step is given the endpoint's second model, not the default.
      await page.goto(`${url}/flows/${flow.id}`);
      await page.getByTestId('edit-mode').waitFor();
      await page.getByTestId('step-tree-item-1').click();
      const picker = page.getByTestId('step-model-select');
      await expect.poll(() => picker.isEnabled()).toBe(true);
      await picker.selectOption('openai:gpt-4.1');
      const savedModel = async () =>
        ((await callApi(page, url, 'GET', `/api/flows/${flow.id}/steps`)) as Array<{ model?: string }>)[0]
          ?.model;
      await expect.poll(savedModel).toBe('openai:gpt-4.1');

      // Run mode: the step runs on it.
      await page.goto(`${url}/flows/${flow.id}?mode=run`);
      await page.getByTestId('execute-step-1').click();
      await expect
        .poll(() => page.getByTestId('step-results-1').textContent(), { timeout: 15_000 })
        .toContain('Trà xanh mát lành');
      const chat = openai!.requests.filter((request) => request.path.endsWith('/chat/completions'));
      expect(chat.map((request) => request.body.model)).toEqual(['gpt-4.1']);

      // The request log tells who answered and how.
      await page.getByTestId('open-logs').click();
      const entry = page.getByTestId('logs-dialog').getByTestId('log-entry');
      await expect.poll(() => entry.count()).toBe(1);
      await expect.poll(() => entry.getByTestId('log-status').textContent()).toBe('Thành công');
      expect(await entry.getByTestId('log-provider').textContent()).toBe('Provider: openai');
      expect(await entry.getByTestId('log-model').textContent()).toBe('Model: gpt-4.1');
      expect(await entry.getByTestId('log-tokens').textContent()).toBe('Tokens: 42 vào · 7 ra');
      expect(await entry.getByTestId('log-first-token').textContent()).toMatch(
        /^Token đầu tiên sau (\d+ ms|\d+(,\d)? s)$/,
      );
      await screenshot(page, 'request-log-01-usage');
    });
  },
);
