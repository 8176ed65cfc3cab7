import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { answerConfirmation, callApi, missingBrowser, screenshot, signOut, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

interface StepRow {
  id: string;
  order: number;
  name: string;
  outputMode: string;
  choices: string[];
  inputSources: string[];
  loopTargetStepId: string | null;
  maxLoopIterations: number;
}

const stepsOf = (page: Page, baseUrl: string, flowId: string) =>
  callApi(page, baseUrl, 'GET', `/api/flows/${flowId}/steps`) as Promise<StepRow[]>;

const toastText = (page: Page) => page.getByTestId('toast').allTextContents();

describe.skipIf(skipReason !== null)(
  `edit mode in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it('adds steps, configures a choice step with an input source, saves it, and deletes a step', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'edit-mode-failed-tab');
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'Lan');
      const flow = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Bài blog',
        description: 'Từ ý tưởng đến bản nháp',
      });

      // Edit is the default mode; a flow without steps has nothing to show on the right.
      await page.goto(`${server.url}/flows/${flow.id}`);
      await page.getByTestId('edit-mode').waitFor();
      expect(await page.getByTestId('step-detail-empty').textContent()).toBe(
        'Select a step from the flow tree to view details',
      );
      await page.getByTestId('execution-status-none').waitFor();
      expect(await page.getByTestId('unsaved-changes').count()).toBe(0);

      // Add Step twice: 'New Step {n}' at order count + 1; the new step is the one shown.
      await page.getByTestId('edit-add-step').click();
      await page.getByTestId('step-tree-item-1').waitFor();
      await page.getByTestId('edit-add-step').click();
      await page.getByTestId('step-tree-item-2').waitFor();
      expect(await page.getByTestId('step-tree-name').allTextContents()).toEqual([
        'New Step 1',
        'New Step 2',
      ]);
      expect(await page.getByTestId('step-tree-mode').allTextContents()).toEqual([
        'Single Output',
        'Single Output',
      ]);
      await expect.poll(() => page.getByTestId('step-detail-title').textContent()).toBe('Step 2: New Step 2');
      expect(await page.getByTestId('step-tree-item-2').getAttribute('data-selected')).toBe('true');
      expect(await page.getByTestId('step-detail-mode').textContent()).toBe('Single Output');
      // Adding steps made the workspace dirty, but they are saved already: the mark says so.
      await page.getByTestId('steps-changed').waitFor();
      expect(await page.getByTestId('steps-changed').getAttribute('title')).toContain('được lưu ngay');
      expect(await page.getByTestId('unsaved-changes').count()).toBe(0);

      // Read-only until the edit toggle is on.
      expect(await page.getByTestId('step-output-mode').isDisabled()).toBe(true);
      await page.getByTestId('edit-toggle').click();
      await page.getByTestId('step-prompt-input').fill('So sánh [[step-1]] với [[Giọng văn]].');
      // An edit only this tab holds is what 'Có thay đổi' marks.
      await page.getByTestId('unsaved-changes').waitFor();
      expect(await page.getByTestId('steps-changed').count()).toBe(0);
      expect(await page.getByTestId('prompt-label').allTextContents()).toEqual([
        '[[step-1]]→ Step 1',
        '[[Giọng văn]]',
      ]);

      // multiple_choice: one row to fill, which cannot be removed.
      await page.getByTestId('step-output-mode').selectOption('multiple_choice');
      expect(await page.getByTestId('need-choice').textContent()).toBe('Add at least one choice option');
      expect(await page.getByTestId('save-step').isDisabled()).toBe(true);
      expect(await page.getByTestId('remove-choice-1').isDisabled()).toBe(true);
      await page.getByTestId('remove-choice-1').click({ force: true });
      expect(await page.getByTestId('choice-input-1').count()).toBe(1);
      await page.getByTestId('choice-input-1').fill('Ngắn gọn');
      expect(await page.getByTestId('need-choice').count()).toBe(0);
      await page.getByTestId('add-choice').click();
      await page.getByTestId('choice-input-2').fill('Chi tiết');
      // With two, either may go; a third row removed again leaves the two.
      expect(await page.getByTestId('remove-choice-1').isDisabled()).toBe(false);
      await page.getByTestId('add-choice').click();
      await page.getByTestId('remove-choice-3').click();
      expect(await page.getByTestId('choices-editor').locator('input').count()).toBe(2);

      // Input sources: only earlier steps are offered.
      expect(await page.getByTestId('input-sources').getByRole('checkbox').count()).toBe(1);
      await page.getByTestId('input-source-1').click();
      expect(await page.getByTestId('input-source-1').getAttribute('data-state')).toBe('checked');
      await screenshot(page, 'edit-mode-01-choice-step');

      // The header's Save takes the open edits with it and clears the dirty badge.
      await page.getByTestId('save-flow').click();
      await expect.poll(() => toastText(page)).toEqual(['Đã lưu thành công']);
      await expect.poll(() => page.getByTestId('unsaved-changes').count()).toBe(0);
      expect(await page.getByTestId('steps-changed').count()).toBe(0);
      await expect.poll(() => page.getByTestId('step-detail-mode').textContent()).toBe('Choice');
      expect(await page.getByTestId('step-output-mode').isDisabled()).toBe(true);

      const [first, second] = await stepsOf(page, server.url, flow.id);
      expect(second).toMatchObject({
        outputMode: 'multiple_choice',
        choices: ['Ngắn gọn', 'Chi tiết'],
        inputSources: [first?.id],
      });

      // After a reload the configuration is still there.
      await page.reload();
      await page.getByTestId('step-tree-item-2').click();
      await expect.poll(() => page.getByTestId('step-detail-title').textContent()).toBe('Step 2: New Step 2');
      expect(await page.getByTestId('step-output-mode').inputValue()).toBe('multiple_choice');
      expect(await page.getByTestId('choice-input-1').inputValue()).toBe('Ngắn gọn');
      expect(await page.getByTestId('choice-input-2').inputValue()).toBe('Chi tiết');
      expect(await page.getByTestId('input-source-1').getAttribute('data-state')).toBe('checked');
      expect(await page.getByTestId('step-prompt-input').inputValue()).toBe(
        'So sánh [[step-1]] với [[Giọng văn]].',
      );
      expect(await page.getByTestId('step-tree-mode').allTextContents()).toEqual(['Single Output', 'Choice']);
      expect(await page.getByTestId('unsaved-changes').count()).toBe(0);

      // The card's own Save: rename step 1; saved at once, marked so until the header's Save.
      await page.getByTestId('step-tree-item-1').click();
      await page.getByTestId('edit-toggle').click();
      await page.getByTestId('step-name-input').fill('Dàn ý');
      // A loop repeats the step itself: the target is shown, locked.
      await page.getByTestId('step-output-mode').selectOption('loop');
      expect(await page.getByTestId('step-loop-target').isDisabled()).toBe(true);
      expect(await page.getByTestId('step-loop-target').textContent()).toBe('Step 1: Dàn ý');
      await page.getByTestId('step-loop-iterations').fill('3');
      await page.getByTestId('save-step').click();
      await expect.poll(() => page.getByTestId('step-detail-title').textContent()).toBe('Step 1: Dàn ý');
      expect(await page.getByTestId('step-detail-mode').textContent()).toBe('Loop');
      await page.getByTestId('steps-changed').waitFor();
      expect(await page.getByTestId('unsaved-changes').count()).toBe(0);
      const [looped] = await stepsOf(page, server.url, flow.id);
      expect(looped).toMatchObject({ name: 'Dàn ý', outputMode: 'loop', maxLoopIterations: 3 });
      expect(looped?.loopTargetStepId).toBe(looped?.id);

      // Deleting asks first; dismissing keeps the step.
      await page.getByTestId('delete-step').click();
      expect(await answerConfirmation(page, false)).toBe('Bạn có chắc muốn xóa Step 1: Dàn ý?');
      expect(await page.getByTestId('step-tree').locator('li').count()).toBe(2);

      await page.getByTestId('delete-step').click();
      await answerConfirmation(page, true);
      await expect.poll(() => toastText(page)).toEqual(['Thành côngStep đã được xóa khỏi flow']);
      await expect.poll(() => page.getByTestId('step-tree').locator('li').count()).toBe(1);
      // The one left is shown, and no longer takes input from the deleted step.
      await expect.poll(() => page.getByTestId('step-detail-title').textContent()).toBe('Step 2: New Step 2');
      const left = await stepsOf(page, server.url, flow.id);
      expect(left.map((s) => [s.name, s.inputSources])).toEqual([['New Step 2', []]]);
      await screenshot(page, 'edit-mode-02-after-delete');
    });

    it('tests a step on the latest execution and shows its results and where the execution stands', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'edit-mode-test-failed-tab');
      const page = await browser.newPage();
      // The browser still holds the first test's session.
      await signOut(page, server.url);
      await signUpInBrowser(page, server.url, 'Minh');
      const flow = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Thử',
        description: 'Một step',
      });
      await callApi(page, server.url, 'POST', '/api/steps', {
        flowId: flow.id,
        order: 1,
        name: 'Tóm tắt',
        systemPrompt: 'Summarise the input in one sentence.',
      });
      await page.goto(`${server.url}/flows/${flow.id}`);
      // The first step is chosen by itself.
      await expect.poll(() => page.getByTestId('step-detail-title').textContent()).toBe('Step 1: Tóm tắt');

      await page.getByTestId('test-execute').click();
      await expect
        .poll(() => toastText(page))
        .toEqual(['No Active ExecutionPlease start an execution first']);

      await callApi(page, server.url, 'POST', `/api/flows/${flow.id}/execute`);
      await page.reload();
      await expect
        .poll(() => page.getByTestId('edit-execution-status').getAttribute('data-status'))
        .toBe('waiting');
      expect(await page.getByTestId('edit-execution-current-step').textContent()).toContain(
        'Step 1: Tóm tắt',
      );

      await page.getByTestId('test-input').fill('Trà xanh có nhiều chất chống oxy hoá.');
      await page.getByTestId('test-execute').click();
      await page.getByTestId('test-answer').waitFor({ timeout: 30_000 });
      expect((await page.getByTestId('test-answer').textContent())?.length).toBeGreaterThan(20);
      await page.getByTestId('step-results-card').getByTestId('result-label').first().waitFor();
      await expect
        .poll(() => page.getByTestId('edit-execution-status').getAttribute('data-status'))
        .toBe('completed');
      await screenshot(page, 'edit-mode-03-test-execution');
    });

    it('asks before closing a tab with edits not saved, and not once they are saved', async () => {
      const { server, browser } = env;
      const page = await browser.newPage();
      await signOut(page, server.url);
      await signUpInBrowser(page, server.url, 'Quang');
      const flow = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Giữ',
        description: 'Chưa lưu',
      });
      await page.goto(`${server.url}/flows/${flow.id}?mode=edit`);
      await page.getByTestId('flow-details').waitFor();
      await page.getByTestId('flow-details-name').fill('Giữ lại');
      await page.getByTestId('unsaved-changes').waitFor();

      const asked = new Promise<string>((resolve) => {
        page.once('dialog', (dialog) => {
          resolve(dialog.type());
          void dialog.dismiss();
        });
      });
      await page.close({ runBeforeUnload: true });
      expect(await asked).toBe('beforeunload');
      // Dismissed: the tab stays, with the edit.
      expect(page.isClosed()).toBe(false);
      expect(await page.getByTestId('flow-details-name').inputValue()).toBe('Giữ lại');

      await page.getByTestId('save-flow').click();
      await expect.poll(() => page.getByTestId('unsaved-changes').count()).toBe(0);
      let askedAgain = false;
      page.once('dialog', (dialog) => {
        askedAgain = true;
        void dialog.accept();
      });
      await page.close({ runBeforeUnload: true });
      await expect.poll(() => page.isClosed()).toBe(true);
      expect(askedAgain).toBe(false);
    });

    it('renames, re-describes and activates a flow in edit mode; Save stores it and the flows list shows it', async () => {
      const { server, browser } = env;
      const page = await browser.newPage();
      await signOut(page, server.url);
      await signUpInBrowser(page, server.url, 'Hoa');
      const flow = await callApi(page, server.url, 'POST', '/api/flows', { name: 'Nháp', description: 'Cũ' });
      await page.goto(`${server.url}/flows/${flow.id}?mode=edit`);
      await page.getByTestId('flow-details').waitFor();
      expect(await page.getByTestId('flow-details-status').inputValue()).toBe('draft');

      // A blank name cannot be saved: the field says why and Save's toast tells the failure.
      await page.getByTestId('flow-details-name').fill('  ');
      expect(await page.getByTestId('flow-details').textContent()).toContain('name không được để trống');
      await page.getByTestId('save-flow').click();
      await expect.poll(() => toastText(page)).toContainEqual('Lưu thất bạiname không được để trống');

      await page.getByTestId('flow-details-name').fill('Bài blog về trà');
      await page.getByTestId('flow-details-description').fill('Từ ý tưởng đến bản nháp');
      await page.getByTestId('flow-details-status').selectOption('active');
      await page.getByTestId('unsaved-changes').waitFor();
      await page.getByTestId('save-flow').click();
      await expect.poll(() => toastText(page)).toContainEqual(expect.stringContaining('Đã lưu thành công'));
      await expect.poll(() => page.getByTestId('flow-title').textContent()).toBe('Bài blog về trà');
      expect(await page.getByTestId('unsaved-changes').count()).toBe(0);
      await screenshot(page, 'edit-mode-03-flow-details');
      const stored = await callApi(page, server.url, 'GET', `/api/flows/${flow.id}`);
      expect(stored).toMatchObject({
        name: 'Bài blog về trà',
        description: 'Từ ý tưởng đến bản nháp',
        status: 'active',
      });

      await page.goto(`${server.url}/flows`);
      const card = page.getByTestId('flow-card').filter({ hasText: 'Bài blog về trà' });
      await card.waitFor();
      expect(await card.getByTestId('flow-card-status').textContent()).toBe('Active');
      expect(await card.getByTestId('flow-card-description').textContent()).toBe('Từ ý tưởng đến bản nháp');
    });
  },
);
