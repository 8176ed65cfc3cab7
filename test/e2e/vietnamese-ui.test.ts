import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  callApi,
  joinWorkspace,
  missingBrowser,
  openBrowser,
  signedUpPerson,
  signUpInBrowser,
} from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

/**
 * The interface is Vietnamese with English product words. A run of three or more English words is a
 * sentence left untranslated, unless every word of it is a product word or it is one of the texts below.
 */

/** Product words the app keeps in English (lower case); a run made only of these passes. */
const PRODUCT_WORDS = new Set(
  (
    'ai api apis key keys json flow flows workflow workflows step steps review reviews approve approved ' +
    'reject rejected workspace workspaces owner editor reviewer auditor role prompt prompts input output ' +
    'execute all execution executions master mode session sessions quickrun run re-run chat edit label ' +
    'labels model token tokens provider template templates import export logs log context version ' +
    'versions history timeline record user system creator suggestions test single multiple choice loop ' +
    'status live polling request gemini openai anthropic dataset datasets'
  ).split(' '),
);

/**
 * English texts the product shows on purpose: those the specification gives word for word (templated
 * ones with N for the number), and names. Keep this short: a new English sentence belongs in Vietnamese.
 */
const ALLOWED = [
  // The specification's texts.
  'Page Not Found',
  'No flows found matching your search.',
  'No flows created yet.',
  'Create Your First Flow',
  'Flow not found',
  'The requested flow does not exist.',
  'Back to Flows',
  'Select a step from the flow tree to view details',
  'Loading Master Mode...',
  'No Master Mode session found',
  'No Recommendations Yet',
  'No recommendations in this category yet.',
  'Run mode execution - no additional input',
  'Step N has been executed successfully',
  'Add at least one choice option',
  'Export Workflow JSON',
  // Names: the product's, an idea's, its features' and the key provider's site.
  'Prompt Flow Workbench',
  'Chain of Thought',
  'AI Flow Creator',
  'AI Workflow Creator',
  'AI Request Logs',
  'AI Conversation Context',
  'Google AI Studio',
  // A button of the provider's own site, named in the API keys guide; the event log's command.
  'Create API key',
  'npm run -s events',
];

/** Vietnamese syllables written without a diacritic: they end an English run rather than extend it. */
const VIETNAMESE_PLAIN = new Set(
  'a anh ban chia cho chi chung con em hay khi khac kho la ma nay nhanh nhau ra sau tin theo thi trang trong xem va vi'.split(
    ' ',
  ),
);

const WORD = /^[A-Za-z]+(?:['’-][A-Za-z]+)*$/;

/** The runs of three or more English words in `text`, split at line ends, sentence ends and separators. */
function englishRuns(text: string, { all = false } = {}): string[] {
  const runs: string[] = [];
  for (const phrase of text.split(/\n|(?<=[.!?:;])\s+|\s[·•|—–→]\s|[()[\]"“”'‘’«»]/u)) {
    let run: string[] = [];
    const flush = () => {
      if (run.length >= 3 && (all || run.some((word) => !PRODUCT_WORDS.has(word.toLowerCase())))) {
        runs.push(run.join(' '));
      }
      run = [];
    };
    for (const token of phrase.split(/\s+/)) {
      const word = token.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
      if (WORD.test(word) && !VIETNAMESE_PLAIN.has(word.toLowerCase())) run.push(word);
      else flush();
    }
    flush();
  }
  return runs;
}

const allowedRuns = ALLOWED.flatMap((text) => englishRuns(text, { all: true }));
const isAllowed = (run: string, data: string[]) =>
  allowedRuns.some((allowed) => ` ${allowed} `.includes(` ${run} `)) ||
  data.some((text) => text.includes(run));

/** What the page shows: its visible text, the names and hints of its controls, and its select options. */
function shownText(page: Page): Promise<string> {
  return page.evaluate(() => {
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point, hidden text is not shown
    const parts = [document.body.innerText];
    for (const element of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
      for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = element.getAttribute(name);
        if (value) parts.push(value);
      }
    }
    for (const option of document.querySelectorAll('option')) parts.push(option.textContent ?? '');
    return parts.join('\n');
  });
}

describe.skipIf(skipReason !== null)(
  `Vietnamese on every screen${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it('tells an English sentence from Vietnamese with product words', () => {
      expect(englishRuns('Waiting for review by Bình Nguyễn')).toEqual(['Waiting for review by']);
      expect(englishRuns('Execute All completed\nWorkspace not found')).toEqual([
        'Execute All completed',
        'Workspace not found',
      ]);
      expect(englishRuns('Đang chờ duyệt (review) bởi Bình · Execute All đã hoàn thành')).toEqual([]);
      expect(englishRuns('Flow này chưa có Master Mode session.')).toEqual([]);
      expect(isAllowed('has been executed successfully', [])).toBe(true);
    });

    it('shows no English sentence outside the product words, at 1280 and 390 px wide', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'vietnamese-ui-failed-tab');
      const page = await browser.newPage();
      /** Each English run found, with where: `[width] screen: run`. */
      const found = new Set<string>();
      /** Texts that are data rather than interface (what the model answered), where a run may stand. */
      const data: string[] = [];
      let width = 1280;
      const started = Date.now();

      const scan = async (where: string) => {
        // Late data settles first; a screen that polls is read as it stands after a short wait.
        await page.waitForLoadState('networkidle', { timeout: 3_000 }).catch(() => {});
        if (process.env.SCAN_LOG) console.log(`[${width}] ${where}`, Date.now() - started);
        for (const run of englishRuns(await shownText(page))) {
          if (!isAllowed(run, data)) found.add(`[${width}] ${where}: ${run}`);
        }
      };
      const visit = async (url: string, ready: string) => {
        await page.goto(`${server.url}${url}`);
        await page.getByTestId(ready).first().waitFor();
        await scan(url);
      };
      /** Opens a dialog with its button, scans the page with it open, and closes it. */
      const openDialog = async (where: string, button: string, dialog: string) => {
        await page.getByTestId(button).first().click();
        await page.getByTestId(dialog).first().waitFor();
        await scan(`${where} (${dialog})`);
        await page.keyboard.press('Escape');
        await page.getByTestId(dialog).first().waitFor({ state: 'detached' });
      };

      // Signed out.
      for (const w of [1280, 390]) {
        width = w;
        await page.setViewportSize({ width, height: 900 });
        await visit('/', 'landing-page');
        await visit('/flows-static', 'flows-static-page');
      }

      // Signed in, before anything is made: the first-run welcome and the empty states.
      await page.setViewportSize({ width: 1280, height: 900 });
      await signUpInBrowser(page, server.url, 'Lan');
      for (const w of [1280, 390]) {
        width = w;
        await page.setViewportSize({ width, height: 900 });
        for (const [url, ready] of [
          ['/flows', 'flows-heading'],
          ['/workshop', 'workshop-page'],
          ['/sessions', 'sessions-page'],
          ['/master-mode', 'master-mode-start'],
          ['/workspaces', 'workspaces-empty'],
          ['/reviews', 'reviews-page'],
        ] as const) {
          await visit(url, ready);
        }
      }

      // A flow of two steps with a run of the first, a workspace with an invitation and a shared flow,
      // and a master mode session with a row.
      const flow = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Bài blog',
        description: 'Từ ý tưởng đến bản nháp',
      });
      const steps = [];
      for (const [i, name] of ['Ý tưởng', 'Bản nháp'].entries()) {
        steps.push(
          await callApi(page, server.url, 'POST', '/api/steps', {
            flowId: flow.id,
            order: i + 1,
            name,
            systemPrompt: i === 0 ? 'Gợi ý ý tưởng' : 'Viết từ [[step-1]]',
          }),
        );
      }
      const execution = await callApi(page, server.url, 'POST', `/api/flows/${flow.id}/execute`, {});
      await callApi(
        page,
        server.url,
        'POST',
        `/api/executions/${execution.id}/steps/${steps[0].id}/execute`,
        {},
      );
      const { results } = await callApi(page, server.url, 'GET', `/api/executions/${execution.id}`);
      for (const result of results) data.push(result.result);

      const workspace = await callApi(page, server.url, 'POST', '/api/workspaces', { name: 'Nhóm blog' });
      const invitation = await callApi(
        page,
        server.url,
        'POST',
        `/api/workspaces/${workspace.id}/invitations`,
        { email: 'khach@example.com', role: 'auditor' },
      );
      const shared = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Bài blog chung',
        description: 'Của cả nhóm',
        workspaceId: workspace.id,
      });
      // Its one step waits for a reviewer's review once it has run: Bình's, in a browser of her own.
      const second = await openBrowser();
      try {
        const binh = await signedUpPerson(second, server.url, 'Bình');
        const lan = { page, ...(await callApi(page, server.url, 'GET', '/api/auth/user')) };
        await joinWorkspace(server.url, lan, workspace.id, binh, 'reviewer');
      } finally {
        await second.close();
      }
      const reviewed = await callApi(page, server.url, 'POST', '/api/steps', {
        flowId: shared.id,
        order: 1,
        name: 'Bản nháp chung',
        systemPrompt: 'Viết bản nháp',
        review: { by: 'role', role: 'reviewer' },
      });
      const sharedRun = await callApi(page, server.url, 'POST', `/api/flows/${shared.id}/execute`, {});
      await callApi(
        page,
        server.url,
        'POST',
        `/api/executions/${sharedRun.id}/steps/${reviewed.id}/execute`,
        {},
      );
      const sharedResults = await callApi(page, server.url, 'GET', `/api/executions/${sharedRun.id}`);
      for (const result of sharedResults.results) data.push(result.result);
      const session = await callApi(page, server.url, 'POST', '/api/master-mode/standalone', {
        name: 'Bảng tính',
      });
      await callApi(page, server.url, 'POST', '/api/master-mode/steps', {
        sessionId: session.id,
        stepName: 'Tóm tắt',
        userInput: 'Trà xanh',
      });

      for (const w of [1280, 390]) {
        width = w;
        await page.setViewportSize({ width, height: 900 });
        for (const [url, ready] of [
          ['/flows', 'flow-list'],
          ['/flows-fast', 'flows-fast-page'],
          ['/flows-static', 'flows-static-page'],
          [`/flows/${flow.id}?mode=edit`, 'edit-mode'],
          [`/flows/${flow.id}?mode=run`, 'run-mode'],
          [`/flows/${shared.id}?mode=run`, `step-waiting-review-${reviewed.id}`],
          [`/flows/${flow.id}?mode=chat`, 'chat-mode'],
          [`/flows/${flow.id}?mode=master`, 'flow-workspace'],
          [`/flows/${flow.id}/versions`, 'flow-history-title'],
          ['/flows/00000000-0000-4000-8000-000000000000', 'flow-not-found'],
          ['/workshop', 'workshop-page'],
          ['/sessions', 'sessions-page'],
          ['/recommendations', 'recommendations-page'],
          ['/api-keys', 'api-keys-page'],
          ['/api-keys/tokens', 'api-tokens-page'],
          ['/ai-flow-creator', 'ai-flow-creator-page'],
          ['/guide', 'guide-page'],
          ['/master-mode', 'master-mode-start'],
          [`/master-mode?sessionId=${session.id}`, 'master-mode-screen'],
          ['/about', 'about-page'],
          ['/workspaces', 'workspace-card'],
          [`/workspaces/${workspace.id}`, 'workspace-flow'],
          [`/workspaces/${workspace.id}?tab=members`, 'member-row'],
          [`/workspaces/${workspace.id}?tab=executions`, 'execution-row'],
          ['/workspaces/00000000-0000-4000-8000-000000000000', 'workspace-not-found'],
          ['/reviews', 'reviews-page'],
          // Sent to another address: to this user the link is no longer valid.
          [new URL(invitation.acceptUrl).pathname, 'invitation-invalid'],
          ['/no-such-page', 'not-found'],
        ] as const) {
          await visit(url, ready);
        }

        // The dialogs opened most: new flow and AI creator, the run's history, logs and suggestions, and
        // master mode's Step Settings.
        await visit('/flows', 'flow-list');
        await openDialog('/flows', 'create-flow-button', 'create-flow-dialog');
        await openDialog('/flows', 'ai-creator-button', 'ai-creator-dialog');
        await visit(`/flows/${flow.id}?mode=run`, 'run-mode');
        await openDialog('run mode', 'open-history', 'history-dialog');
        await openDialog('run mode', 'open-logs', 'logs-dialog');
        await openDialog('run mode', 'open-suggestions', 'suggestions-dialog');
        await visit(`/master-mode?sessionId=${session.id}`, 'master-mode-screen');
        await page.getByTestId('master-row-1').getByTestId('master-row-select').click();
        await openDialog('master mode', 'master-step-settings-open', 'master-step-settings');
      }

      expect([...found]).toEqual([]);
    }, 300_000);
  },
);
