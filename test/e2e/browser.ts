import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/** Where the browser tests look for Chromium: CHROMIUM_PATH, else Debian's package. */
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const hasBrowser = existsSync(chromiumPath);

/** Why the browser tests cannot run here, or null; under CI a missing browser is a failure, not a skip. */
export function missingBrowser(): string | null {
  if (hasBrowser) return null;
  const reason = `no Chromium at ${chromiumPath} (install Debian's chromium or set CHROMIUM_PATH)`;
  if (process.env.CI === 'true') throw new Error(`e2e cannot run under CI: ${reason}`);
  return reason;
}

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-results/e2e');

export interface Browser {
  context: BrowserContext;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/** Headless Chromium with a fresh profile of its own. */
export async function openBrowser(): Promise<Browser> {
  const profile = await mkdtemp(path.join(tmpdir(), 'workbench-e2e-'));
  await mkdir(ARTIFACTS, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 900 },
    locale: 'vi-VN',
  });
  // Short enough that a failing step names itself before the test's own timeout.
  context.setDefaultTimeout(15_000);
  return {
    context,
    newPage: () => context.newPage(),
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

export function screenshot(page: Page, name: string) {
  return page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/**
 * Answers the app's confirmation dialog, once it asks: goes ahead or cancels, waits for it to close, and
 * returns the question it asked.
 */
export async function answerConfirmation(page: Page, goAhead: boolean): Promise<string> {
  const dialog = page.getByTestId('confirm-dialog');
  await dialog.waitFor();
  const question = (await dialog.getByTestId('confirm-dialog-question').textContent()) ?? '';
  await dialog.getByTestId(goAhead ? 'confirm-dialog-confirm' : 'confirm-dialog-cancel').click();
  await dialog.waitFor({ state: 'detached' });
  return question;
}

/** Creates an account on the server-rendered sign-in page and waits for the flows list. */
export async function signUpInBrowser(page: Page, baseUrl: string, firstName: string, lastName = 'Nguyễn') {
  await page.goto(`${baseUrl}/api/login`);
  await page.locator('summary').click();
  await page.fill('#register-last-name', lastName);
  await page.fill('#register-first-name', firstName);
  await page.fill('#register-email', `user-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`);
  await page.fill('#register-password', 'correct horse battery');
  await page.getByTestId('register-submit').click();
  await page.getByTestId('flows-heading').waitFor();
}

/** A JSON call with the page's session, as the web app makes it (same origin). */
export async function callApi(
  page: Page,
  baseUrl: string,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  data?: unknown,
) {
  const response = await page.request.fetch(`${baseUrl}${path}`, {
    method,
    headers: { origin: baseUrl },
    ...(data === undefined ? {} : { data }),
  });
  if (!response.ok()) throw new Error(`${method} ${path}: ${response.status()} ${await response.text()}`);
  return response.json();
}

/**
 * Signs the page's user out. The app is left first: a page still open answers its session ending (its sockets
 * are closed at sign-out) by going to the sign-in page itself, which would cut the sign-out's own navigation short.
 */
export async function signOut(page: Page, baseUrl: string) {
  await page.goto('about:blank');
  await page.goto(`${baseUrl}/api/logout`);
}

/** A signed-in person in a browser of their own (their own session). */
export interface BrowserPerson {
  page: Page;
  id: string;
  email: string;
}

/** A new account signed up in a new page of `browser`. */
export async function signedUpPerson(
  browser: Browser,
  baseUrl: string,
  firstName: string,
): Promise<BrowserPerson> {
  const page = await browser.newPage();
  await signUpInBrowser(page, baseUrl, firstName);
  const { id, email } = await callApi(page, baseUrl, 'GET', '/api/auth/user');
  return { page, id, email };
}

/** `member` joins the workspace in `role`, invited by `owner`: through the API, the invitation is not the point. */
export async function joinWorkspace(
  baseUrl: string,
  owner: BrowserPerson,
  workspaceId: string,
  member: BrowserPerson,
  role: string,
) {
  const { acceptUrl } = await callApi(
    owner.page,
    baseUrl,
    'POST',
    `/api/workspaces/${workspaceId}/invitations`,
    {
      email: member.email,
      role,
    },
  );
  const token = new URL(acceptUrl).pathname.split('/').at(-1);
  await callApi(member.page, baseUrl, 'POST', `/api/invitations/${token}/accept`);
}
