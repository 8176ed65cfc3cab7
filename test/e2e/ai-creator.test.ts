import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BUILTIN_TEMPLATES } from '../../src/domain/builtin-templates';
import { callApi, missingBrowser, screenshot, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

/** The card of the flow of that name in the list, once it is there. */
async function flowCard(page: Page, name: string) {
  const card = page.getByTestId('flow-card').filter({
    has: page.getByTestId('flow-card-name').getByText(name, { exact: true }),
  });
  await card.waitFor();
  return card;
}

async function openCreator(page: Page, tab: 'generate' | 'template' | 'import') {
  await page.getByTestId('ai-creator-button').click();
  await page.getByTestId('ai-creator-dialog').waitFor();
  await page.getByTestId(`ai-creator-tab-${tab}`).click();
}

/** The toast now shown, as title and description. */
async function toastText(page: Page) {
  const toast = page.getByTestId('toast').last();
  await toast.waitFor();
  return (await toast.textContent()) ?? '';
}

describe.skipIf(skipReason !== null)(
  `the AI Workflow Creator in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it('creates flows from each template, from a description (offline model) and from pasted JSON', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'ai-creator-failed-tab');
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'Lan');

      // Template: none chosen first, then each of the three.
      await openCreator(page, 'template');
      await page.getByTestId('ai-creator-create-template').click();
      expect(await toastText(page)).toContain('Chưa chọn template');
      expect(await toastText(page)).toContain('Vui lòng chọn một template workflow.');
      for (const [i, { id, workflow }] of BUILTIN_TEMPLATES.entries()) {
        if (i > 0) await openCreator(page, 'template');
        await page.getByTestId('ai-creator-template-select').selectOption(id);
        const preview = page.getByTestId('ai-creator-template-preview');
        await expect.poll(() => preview.getByTestId('preview-step').count()).toBe(3);
        if (id === 'marketing-content') {
          expect(await preview.getByTestId('preview-step-mode').allInnerTexts()).toEqual([
            'Một kết quả',
            'Một kết quả',
            'Nhiều kết quả',
          ]);
          await screenshot(page, 'ai-creator-01-template-preview');
        }
        await page.getByTestId('ai-creator-create-template').click();
        await page.getByTestId('ai-creator-dialog').waitFor({ state: 'detached' });
        expect(await toastText(page)).toContain('Thành công!');
        const card = await flowCard(page, workflow.name);
        expect(await card.getByTestId('flow-card-step-count').textContent()).toBe('3 Steps');
      }

      // Tạo AI: blank description, then a real one answered by the offline model.
      await openCreator(page, 'generate');
      await page.getByTestId('ai-creator-generate').click();
      expect(await toastText(page)).toContain('Thiếu mô tả');
      expect(await page.getByTestId('ai-creator-tip').count()).toBe(0);
      await page
        .getByTestId('ai-creator-description')
        .fill('Tổ chức workshop nhiếp ảnh cuối tuần cho người mới bắt đầu ở Hà Nội.');
      await page.getByTestId('ai-creator-tip').waitFor();
      await page.getByTestId('ai-creator-generate').click();
      const preview = page.getByTestId('ai-creator-preview');
      await preview.waitFor();
      expect(await toastText(page)).toContain('Workflow đã được tạo!');
      expect(await toastText(page)).toContain('3 bước');
      expect(await preview.getByTestId('preview-step').count()).toBe(3);
      expect(await preview.textContent()).toContain('[Offline model]');
      expect(await preview.getByTestId('preview-step-source').allInnerTexts()).toEqual([
        'Input: Step 1',
        'Input: Step 1',
        'Input: Step 2',
      ]);
      // The offline model names the workflow after the description's first sentence.
      const generatedName = (await preview.getByTestId('preview-name').textContent()) ?? '';
      expect(generatedName).toMatch(/^Tổ chức workshop nhiếp ảnh/);
      await screenshot(page, 'ai-creator-02-generated-preview');
      await page.getByTestId('ai-creator-create').click();
      await page.getByTestId('ai-creator-dialog').waitFor({ state: 'detached' });
      expect(await toastText(page)).toContain('Workflow đã được tạo thành công.');
      await flowCard(page, generatedName);

      // The fields start afresh after a creation.
      await openCreator(page, 'generate');
      expect(await page.getByTestId('ai-creator-description').inputValue()).toBe('');
      expect(await page.getByTestId('ai-creator-preview').count()).toBe(0);

      // Import: empty, not JSON, not a workflow, then a flows list whose first flow is created.
      await page.getByTestId('ai-creator-tab-import').click();
      await page.getByTestId('ai-creator-import').click();
      expect(await toastText(page)).toContain('Thiếu JSON');
      await page.getByTestId('ai-creator-import-text').fill('{"name": ');
      await page.getByTestId('ai-creator-import').click();
      expect(await toastText(page)).toContain('JSON không hợp lệ');
      await page.getByTestId('ai-creator-import-text').fill('{"title": "No steps"}');
      await page.getByTestId('ai-creator-import').click();
      expect(await toastText(page)).toContain('File không đúng format workflow JSON.');
      const imported = {
        flows: [
          {
            name: 'Dịch tài liệu kỹ thuật',
            description: 'Dịch rồi rà soát thuật ngữ',
            steps: [
              { name: 'Dịch', order: 1, systemPrompt: 'Dịch sang tiếng Việt', outputMode: 'single' },
              {
                name: 'Rà soát',
                order: 2,
                systemPrompt: 'Rà soát thuật ngữ trong [[step-1]]',
                outputMode: 'single',
                inputSources: ['step-1'],
              },
            ],
          },
          { name: 'Not this one', steps: [] },
        ],
      };
      await page.getByTestId('ai-creator-import-text').fill(JSON.stringify(imported, null, 2));
      await screenshot(page, 'ai-creator-03-import');
      await page.getByTestId('ai-creator-import').click();
      await page.getByTestId('ai-creator-dialog').waitFor({ state: 'detached' });
      expect(await toastText(page)).toContain('Import thành công');
      expect(await toastText(page)).toContain('Dịch tài liệu kỹ thuật');
      const card = await flowCard(page, 'Dịch tài liệu kỹ thuật');
      expect(await card.getByTestId('flow-card-step-count').textContent()).toBe('2 Steps');
      await screenshot(page, 'ai-creator-04-flows-list');

      // Every one of them is a flow of this user, with its steps wired to the created ids.
      const flows = (await callApi(page, server.url, 'GET', '/api/flows')) as Array<{
        id: string;
        name: string;
      }>;
      expect(flows.map((f) => f.name).sort()).toEqual(
        [...BUILTIN_TEMPLATES.map((t) => t.workflow.name), generatedName, 'Dịch tài liệu kỹ thuật'].sort(),
      );
      const translated = flows.find((f) => f.name === 'Dịch tài liệu kỹ thuật')!;
      const steps = (await callApi(page, server.url, 'GET', `/api/flows/${translated.id}/steps`)) as Array<{
        id: string;
        inputSources: string[];
      }>;
      expect(steps[1]!.inputSources).toEqual([steps[0]!.id]);
    });
  },
);
