import { describe, expect, it } from 'vitest';
import { violationsOn } from './axe';
import { callApi, missingBrowser, screenshot, signOut, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

describe.skipIf(skipReason !== null)(
  `datasets in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it("makes a dataset from the flow's screen, uploads a CSV file and shows its items, and archives one", async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'datasets-failed-tab');
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'Lan');
      const flow = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Blog trà',
        description: 'Bài viết về trà',
      });
      for (const [order, name] of [
        [1, 'Ý tưởng'],
        [2, 'Bài viết'],
      ] as const) {
        await callApi(page, server.url, 'POST', '/api/steps', {
          flowId: flow.id,
          name,
          order,
          systemPrompt: order === 1 ? 'List ideas.' : 'Write from [[step-1]].',
        });
      }

      // Reached from the flow's screen.
      await page.goto(`${server.url}/flows/${flow.id}`);
      await page.getByTestId('open-datasets').click();
      await page.getByTestId('datasets-empty').waitFor();
      await page.getByTestId('dataset-name-input').fill('Câu hỏi mẫu');
      await page.getByTestId('create-dataset-submit').click();
      const row = page.getByTestId('dataset-row');
      await expect.poll(() => row.textContent()).toContain('Câu hỏi mẫu');
      await page.waitForLoadState('networkidle');
      expect(await violationsOn(page)).toEqual([]);
      await row.getByRole('link').click();
      await page.getByTestId('dataset-items-empty').waitFor();

      const csv =
        'Ý tưởng,expected:Bài viết,tags\r\ntrà xanh,"Một bài, về trà xanh",xanh;ngắn\r\ntrà đen,,\r\n';
      await page.setInputFiles('[data-testid="dataset-csv-input"]', {
        name: 'cases.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv, 'utf8'),
      });
      const items = page.getByTestId('dataset-item');
      await expect.poll(() => items.count()).toBe(2);
      const first = await items.nth(0).textContent();
      expect(first).toContain('trà xanh');
      expect(first).toContain('Một bài, về trà xanh');
      expect(first).toContain('Ý tưởng');
      expect(first).toContain('xanh');
      expect(await page.getByTestId('dataset-version').textContent()).toContain('2');
      await screenshot(page, 'datasets-00-uploaded');
      await page.waitForLoadState('networkidle');
      expect(await violationsOn(page)).toEqual([]);

      // Archived, it leaves the list unless archived items are shown; an older version still has it.
      await items.nth(1).getByTestId('archive-item').click();
      await expect.poll(() => items.count()).toBe(1);
      await page.getByTestId('show-archived').check();
      await expect.poll(() => items.count()).toBe(2);
      await expect.poll(() => items.nth(1).getAttribute('data-archived')).toBe('true');

      // A malformed file is refused, naming its line; nothing is added.
      await page.setInputFiles('[data-testid="dataset-csv-input"]', {
        name: 'broken.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('Ý tưởng\r\n"không đóng\r\n', 'utf8'),
      });
      await expect.poll(() => page.getByTestId('toast').last().textContent()).toContain('CSV dòng 2');
      expect(await items.count()).toBe(2);
      await screenshot(page, 'datasets-01-archived');
      await signOut(page, server.url);
      await page.close();
    });

    it('adds a run of the flow to a dataset from the run screen: its input and its approved result', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'datasets-run-failed-tab');
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'Minh');
      const flow = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Ý tưởng trà',
        description: 'Một bước',
      });
      const step = await callApi(page, server.url, 'POST', '/api/steps', {
        flowId: flow.id,
        name: 'Ý tưởng',
        order: 1,
        systemPrompt: 'List three ideas.',
        requiresUserInput: true,
      });
      const dataset = await callApi(page, server.url, 'POST', '/api/datasets', {
        name: 'Từ các run',
        flowId: flow.id,
      });
      const execution = await callApi(page, server.url, 'POST', `/api/flows/${flow.id}/execute`, {});
      const run = await callApi(
        page,
        server.url,
        'POST',
        `/api/executions/${execution.id}/steps/${step.id}/execute`,
        { userInput: 'trà sen' },
      );
      await callApi(page, server.url, 'PUT', `/api/step-results/${run.results[0].id}`, { approved: true });

      await page.goto(`${server.url}/flows/${flow.id}?mode=run`);
      await page.getByTestId('add-run-to-dataset').click();
      await page.getByTestId('add-run-dataset-select').selectOption(dataset.id);
      await page.getByTestId('add-run-submit').click();
      await expect.poll(() => page.getByTestId('toast').last().textContent()).toContain('Từ các run');

      await page.goto(`${server.url}/datasets/${dataset.id}`);
      const item = page.getByTestId('dataset-item');
      await expect.poll(() => item.count()).toBe(1);
      const text = await item.textContent();
      expect(text).toContain('trà sen');
      expect(text).toContain(run.results[0].result.slice(0, 20));
      expect(text).toContain('Từ run');
      await screenshot(page, 'datasets-02-from-run');
      await signOut(page, server.url);
      await page.close();
    });
  },
);
