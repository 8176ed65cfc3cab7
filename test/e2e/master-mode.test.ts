import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { type FakeGemini, promptOf, startFakeGemini } from '../support/fake-gemini';
import { answerConfirmation, callApi, missingBrowser, screenshot, signOut, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

/** A slow model: thirty words, three per chunk, 150 ms apart, naming the row it answers. */
function slowAnswer(prompt: string) {
  const topic = /Row topic: ([^\n]*)/.exec(prompt)?.[1] ?? 'none';
  const words = Array.from({ length: 27 }, (_, i) => `w${i + 1}`).join(' ');
  return `Answer about ${topic}: ${words}`;
}

const rowResults = (page: Page) =>
  page
    .getByTestId('master-row-result')
    .evaluateAll((areas) => areas.map((a) => (a as HTMLTextAreaElement).value));

describe.skipIf(skipReason !== null)(
  `master mode in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let gemini: FakeGemini | undefined;
    const env = useServerAndBrowser(async () => {
      gemini = await startFakeGemini({
        respond: (body) => ({ text: slowAnswer(promptOf(body)), chunkDelayMs: 150 }),
      });
      return { GEMINI_API_KEY: 'server-test-key', GOOGLE_GEMINI_BASE_URL: gemini.url };
    });
    afterAll(() => gemini?.close());

    it('creates a session from a flow, edits a row, runs Execute All to the end, then stops a second run mid-way', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'master-mode-failed-tab');
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'Mai');
      const flow = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Du lịch',
        description: 'Ba bước lên kế hoạch',
      });
      const steps = [
        { name: 'Điểm đến', systemPrompt: 'Row topic: places\nSuggest places to visit.' },
        { name: 'Lịch trình', systemPrompt: 'Row topic: plan\nPlan a day around [[step-1]].' },
        { name: 'Ngân sách', systemPrompt: 'Row topic: budget\nEstimate a budget for [[step-2]].' },
      ];
      for (const [i, step] of steps.entries()) {
        await callApi(page, server.url, 'POST', '/api/steps', { flowId: flow.id, order: i + 1, ...step });
      }

      // The flows list was read before the API calls made the flow.
      await page.reload();
      // The start page: from the nav bar; the flow is offered as 'name (N steps)' and Select fills the form.
      await page.getByRole('link', { name: 'Master Mode' }).first().click();
      await page.getByTestId('master-mode-start').waitFor();
      await page.getByTestId('master-create-session').click();
      await expect
        .poll(() => page.getByTestId('toast').textContent())
        .toContain('Please enter a session name');
      const options = await page.getByTestId('master-flow-select').locator('option').allTextContents();
      expect(options).toContain('Du lịch (3 steps)');
      await page
        .getByTestId('master-available-workflow')
        .filter({ hasText: 'Du lịch' })
        .getByTestId('master-select-workflow')
        .click();
      expect(await page.getByTestId('master-session-name').inputValue()).toBe('Du lịch Session');
      expect(await page.getByTestId('master-flow-select').inputValue()).toBe(flow.id);
      await screenshot(page, 'master-mode-01-start');
      await page.getByTestId('master-create-session').click();

      // The session view for the new id: rows numbered 001.., one per step, prompts chained as rows.
      await page.getByTestId('master-mode-screen').waitFor();
      expect(page.url()).toMatch(/\/master-mode\?sessionId=[0-9a-f-]{36}$/);
      const sessionId = new URL(page.url()).searchParams.get('sessionId')!;
      expect(await page.getByTestId('master-mode-title').textContent()).toBe('Master Mode - Du lịch Session');
      expect(await page.getByTestId('master-row-number').allTextContents()).toEqual(['001', '002', '003']);
      expect(await page.getByTestId('master-row-name').allTextContents()).toEqual(steps.map((s) => s.name));
      expect(await page.getByTestId('master-row-prompt').nth(1).inputValue()).toContain('[[row-1]]');
      expect(await page.getByTestId('master-stop').count()).toBe(0);

      // Edit row 1's input: shown at once, saved on blur.
      await page.getByTestId('master-row-1').getByTestId('master-row-input').fill('Đà Nẵng');
      await page.getByTestId('master-mode-title').click();
      await expect
        .poll(
          async () =>
            (await callApi(page, server.url, 'GET', `/api/master-mode/session/${sessionId}`)).steps[0]
              .userInput,
        )
        .toBe('Đà Nẵng');

      // Execute All to the end: Stop shows while it runs, results arrive row by row.
      await page.getByTestId('master-execute-all').click();
      await page.getByTestId('master-stop').waitFor();
      await page.getByTestId('master-row-1').getByTestId('master-row-running').waitFor();
      // The model's words show in the row as it writes them, before its run has ended (pushed, not polled).
      await expect
        .poll(async () => (await rowResults(page))[0], { timeout: 15_000, interval: 50 })
        .toMatch(/^Answer about places(?!.*w27)/);
      await screenshot(page, 'master-mode-02-running');
      await page.getByTestId('master-stop').waitFor({ state: 'detached', timeout: 30_000 });
      const results = await rowResults(page);
      expect(results).toEqual([
        expect.stringMatching(/^Answer about places: .* w27$/),
        expect.stringMatching(/^Answer about plan: .* w27$/),
        expect.stringMatching(/^Answer about budget: .* w27$/),
      ]);
      const prompts = gemini!.requests.map((r) => promptOf(r.body));
      expect(prompts).toHaveLength(3);
      expect(prompts[0]).toContain('Đà Nẵng');
      expect(prompts[1]).toContain(`Plan a day around ${results[0]}`);
      expect(prompts[2]).toContain(`Estimate a budget for ${results[1]}`);
      await screenshot(page, 'master-mode-03-completed');

      // Reset, then a second Execute All stopped while its first row runs: the rows after it do not run.
      await page.getByTestId('master-reset').click();
      await expect.poll(() => rowResults(page)).toEqual(['', '', '']);
      await page.getByTestId('master-execute-all').click();
      await expect.poll(() => gemini!.requests.length).toBe(4);
      await page.getByTestId('master-stop').click();
      await page.getByTestId('master-stop').waitFor({ state: 'detached' });
      await expect
        .poll(
          async () =>
            (await callApi(page, server.url, 'GET', `/api/master-mode/session/${sessionId}`)).steps[0].result,
          {
            timeout: 15_000,
          },
        )
        .toMatch(/^Answer about places/);
      await expect
        .poll(() => page.getByTestId('toast').textContent(), { timeout: 10_000 })
        .toContain('Execute All đã dừng');
      await page.reload();
      await page.getByTestId('master-mode-screen').waitFor();
      expect(await rowResults(page)).toEqual([expect.stringMatching(/^Answer about places/), '', '']);
      expect(gemini!.requests).toHaveLength(4);
      await screenshot(page, 'master-mode-04-stopped');

      // The flow's own Master mode opens the same session.
      await page.goto(`${server.url}/flows/${flow.id}?mode=master`);
      await page.getByTestId('master-mode-screen').waitFor();
      expect(await page.getByTestId('master-mode-title').textContent()).toBe('Master Mode - Du lịch Session');
      await page.getByTestId('master-mode-back').click();
      await page.getByTestId('run-mode').waitFor();

      // A flow without a master session offers to create '{flow name} Session'.
      const other = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Ghi chú',
        description: 'Một bước',
      });
      await callApi(page, server.url, 'POST', '/api/steps', {
        flowId: other.id,
        order: 1,
        name: 'Tóm tắt',
        systemPrompt: 'Summarise.',
      });
      await page.goto(`${server.url}/flows/${other.id}?mode=master`);
      await page.getByTestId('master-create-for-flow').click();
      await page.getByTestId('master-mode-screen').waitFor();
      expect(await page.getByTestId('master-mode-title').textContent()).toBe('Master Mode - Ghi chú Session');
      expect(await page.getByTestId('master-row-name').allTextContents()).toEqual(['Tóm tắt']);

      // An ai row's model is picked on the row, saved at once, and its run is answered by it, not the default.
      const ghiChuId = (
        await callApi(page, server.url, 'GET', `/api/master-mode/sessions?flowId=${other.id}`)
      )[0].id;
      const modelSelect = page.getByTestId('master-row-1').getByTestId('master-row-model-select');
      expect(await modelSelect.inputValue()).toBe('');
      await modelSelect.selectOption('offline:offline');
      await expect
        .poll(
          async () =>
            (await callApi(page, server.url, 'GET', `/api/master-mode/session/${ghiChuId}`)).steps[0].model,
        )
        .toBe('offline:offline');
      const geminiCalls = gemini!.requests.length;
      await page.getByTestId('master-row-1').getByTestId('master-row-select').click();
      await page.getByTestId('master-execute').click();
      await expect
        .poll(async () => (await rowResults(page))[0], { timeout: 15_000 })
        .toMatch(/^\[Offline model\]/);
      expect(gemini!.requests).toHaveLength(geminiCalls);

      // A session without a workflow is found again on the start page, opened and deleted from there.
      await page.goto(`${server.url}/master-mode`);
      await page.getByTestId('master-session-name').fill('Ghi chép riêng');
      await page.getByTestId('master-create-session').click();
      await page.getByTestId('master-mode-screen').waitFor();
      const standaloneId = new URL(page.url()).searchParams.get('sessionId')!;
      await page.getByTestId('master-mode-back').click();
      const listed = page.getByTestId('master-session-item');
      await expect
        .poll(() => listed.getByTestId('master-session-item-name').allTextContents())
        .toEqual(['Ghi chép riêng', 'Ghi chú Session', 'Du lịch Session']);
      const standalone = listed.filter({ hasText: 'Ghi chép riêng' });
      expect(await standalone.textContent()).toContain('Không có workflow');
      expect(await standalone.getByTestId('master-session-item-rows').textContent()).toBe('0 dòng');
      expect(await listed.filter({ hasText: 'Du lịch Session' }).textContent()).toContain(
        'Workflow: Du lịch',
      );
      await screenshot(page, 'master-mode-05-your-sessions');
      await callApi(page, server.url, 'POST', '/api/master-mode/steps', {
        sessionId: standaloneId,
        stepName: 'Tóm tắt',
        systemPrompt: 'Dùng [[Outline]] và [[row-7]], cùng [[row-1]]',
      });
      await standalone.getByTestId('master-session-open').click();
      await page.getByTestId('master-mode-screen').waitFor();
      expect(new URL(page.url()).searchParams.get('sessionId')).toBe(standaloneId);
      // The row was added through the API behind the screen's back: read the session afresh.
      await page.reload();
      await page.getByTestId('master-row-1').waitFor();
      // References that resolve to nothing are listed on the row, as run mode lists unresolved labels.
      expect(await page.getByTestId('master-row-unresolved').textContent()).toBe(
        'Không tìm thấy: [[Outline]], [[row-7]] (giữ nguyên khi chạy)',
      );
      await page.getByTestId('master-mode-back').click();
      await listed.filter({ hasText: 'Ghi chép riêng' }).getByTestId('master-session-delete').click();
      expect(await answerConfirmation(page, true)).toBe(
        'Xóa session "Ghi chép riêng" và các dòng của nó? Các lần chạy vẫn được giữ trong lịch sử.',
      );
      await expect
        .poll(() => listed.getByTestId('master-session-item-name').allTextContents())
        .toEqual(['Ghi chú Session', 'Du lịch Session']);
      await expect.poll(() => page.getByTestId('toast').last().textContent()).toBe('Session đã được xóa');
      await signOut(page, server.url);
      await page.close();
    });

    it('on a 390 px phone, stacks each row so its Result and Prompt are on screen, with no sideways scrolling', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'master-mode-phone-failed-tab');
      const page = await browser.newPage();
      await page.setViewportSize({ width: 390, height: 844 });
      await signUpInBrowser(page, server.url, 'Vy');
      const session = await callApi(page, server.url, 'POST', '/api/master-mode/standalone', {
        name: 'Trên điện thoại',
      });
      for (const stepName of ['Ý tưởng', 'Dàn ý'])
        await callApi(page, server.url, 'POST', '/api/master-mode/steps', {
          sessionId: session.id,
          stepName,
          systemPrompt: `Viết phần ${stepName}.`,
        });
      await page.goto(`${server.url}/master-mode?sessionId=${session.id}`);
      const row = page.getByTestId('master-row-1');
      await row.waitFor();

      // Every field of the row lies within the screen's width, under its column's name.
      for (const field of ['master-row-input', 'master-row-result', 'master-row-prompt']) {
        const box = (await row.getByTestId(field).boundingBox())!;
        expect(box.x, field).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, field).toBeLessThanOrEqual(390);
        expect(box.width, field).toBeGreaterThan(200);
      }
      for (const name of ['Input', 'Result', 'Prompt'])
        expect(await row.getByText(name, { exact: true }).isVisible(), name).toBe(true);
      // The page itself does not scroll sideways, nor does the sheet inside it.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      const sheet = await row.evaluate((element) => {
        const card = element.parentElement!.parentElement!;
        return { scrollWidth: card.scrollWidth, clientWidth: card.clientWidth };
      });
      expect(sheet.scrollWidth).toBeLessThanOrEqual(sheet.clientWidth);
      // The prompt of the last row can be scrolled to above the bottom bar, and edited there.
      const prompt = page.getByTestId('master-row-2').getByTestId('master-row-prompt');
      await prompt.scrollIntoViewIfNeeded();
      await prompt.fill('Viết dàn ý ngắn.');
      expect(await prompt.inputValue()).toBe('Viết dàn ý ngắn.');
      await screenshot(page, 'master-mode-06-phone');

      await signOut(page, server.url);
      await page.close();
    });
  },
);
