import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBundle, makeLog } from '../../src/audit-verify/testing';
import { built, ROOT } from '../support/audit-verify-build';
import { type Browser, missingBrowser, openBrowser, screenshot } from './browser';
import { useServerAndBrowser } from './environment';

const skipReason = missingBrowser();
const log = makeLog();
const size = log.leaves.length;

/**
 * Watches a page for what its policy must keep out: a request to anywhere, and a script or a style the policy
 * refused (a console error naming the Content-Security-Policy).
 */
function watch(page: Page): { requests: string[]; violations: string[] } {
  const seen = { requests: [] as string[], violations: [] as string[] };
  page.on('request', (request) => {
    if (!request.url().startsWith('file:') && !request.url().endsWith('/audit-verify.html')) {
      seen.requests.push(request.url());
    }
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(message.text()))
      seen.violations.push(message.text());
  });
  return seen;
}

/** Picks the files, presses the button, and reads the result's lines. */
async function verify(page: Page, files: { bundle: string; key?: string }): Promise<string[]> {
  await page.setInputFiles('#bundle', {
    name: 'bundle.json',
    mimeType: 'application/json',
    buffer: Buffer.from(files.bundle),
  });
  if (files.key) {
    await page.setInputFiles('#key', {
      name: 'log.pub',
      mimeType: 'text/plain',
      buffer: Buffer.from(files.key),
    });
  }
  await page.locator('#result').evaluate((result: HTMLElement) => {
    result.hidden = true;
  });
  await page.click('#verify');
  await page.locator('#result:not([hidden])').waitFor();
  return page.locator('#result p').allTextContents();
}

async function checkPage(page: Page, name: string) {
  const seen = watch(page);
  await expect(page.title()).resolves.toBe('Kiểm tra bản ghi kiểm toán (audit bundle)');
  const bundle = makeBundle(log);
  expect(await verify(page, { bundle: JSON.stringify(bundle), key: log.verifierKey })).toEqual([
    `Đã xác minh 8 sự kiện, tính đến checkpoint #${size}`,
  ]);
  await screenshot(page, `${name}-verified`);
  bundle.streams[1]!.events[2]!.content = '{"changed": true}';
  const [line] = await verify(page, { bundle: JSON.stringify(bundle) });
  expect(line).toMatch(
    new RegExp(
      `^Không xác minh được: stream execution-b, vị trí 3 \\(leaf \\d+\\): không khớp với log tại checkpoint #${size} \\(đã bị thay đổi\\)$`,
    ),
  );
  await screenshot(page, `${name}-refused`);
  expect(seen).toEqual({ requests: [], violations: [] });
}

describe.skipIf(skipReason !== null)(
  `the audit verifier page in a browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    describe('opened as a file, offline', () => {
      let browser: Browser;
      let dir: string;
      beforeAll(async () => {
        built();
        browser = await openBrowser();
        dir = mkdtempSync(path.join(tmpdir(), 'audit-verify-page-'));
      }, 120_000);
      afterAll(async () => {
        await browser?.close();
        if (dir) rmSync(dir, { recursive: true, force: true });
      });

      it('verifies a bundle and refuses a changed one, its script and style allowed by its own policy', async () => {
        const file = path.join(dir, 'audit-verify.html');
        writeFileSync(file, readFileSync(path.join(ROOT, 'dist', 'audit-verify.html')));
        const page = await browser.newPage();
        await page.context().setOffline(true);
        await page.goto(`file://${file}`);
        await checkPage(page, 'audit-verifier-file');
      });
    });

    describe('served by the server', () => {
      const env = useServerAndBrowser();
      beforeAll(() => built(), 120_000);

      it('verifies at /audit-verify.html, signed out', async () => {
        const page = await env.browser.newPage();
        await page.goto(`${env.server.url}/audit-verify.html`);
        await checkPage(page, 'audit-verifier-served');
      });
    });
  },
);
