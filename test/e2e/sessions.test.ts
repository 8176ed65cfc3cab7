import { describe, expect, it } from 'vitest';
import { answerConfirmation, callApi, missingBrowser, screenshot, signUpInBrowser } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

describe.skipIf(skipReason !== null)(
  `sessions, guide, about, landing and the light flow pages in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser();

    it('shows the landing page signed out, with its sign-in going to /api/login, and the redirect screen', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'sessions-landing-failed-tab');
      const page = await browser.newPage();
      await page.goto(`${server.url}/`);
      await page.getByTestId('landing-page').waitFor();
      expect(await page.getByTestId('landing-feature-card').allTextContents()).toEqual([
        expect.stringContaining('Chain of Thought'),
        expect.stringContaining('Human-in-the-loop'),
        expect.stringContaining('Prompt Library'),
      ]);
      expect(await page.getByTestId('landing-use-case').count()).toBe(3);
      await expect
        .poll(() => page.getByTestId('landing-comparison').textContent())
        .toContain('Chat thông thường');
      await screenshot(page, 'sessions-01-landing');

      await page.getByTestId('landing-sign-in').click();
      await page.waitForURL(`${server.url}/api/login`);
      expect(await page.locator('#register-email').count()).toBe(1);

      // The redirect screen says where it goes, then the browser lands on /flows-static.
      await page.goto(`${server.url}/flows-redirect`);
      await expect
        .poll(() => page.getByTestId('flows-redirect').textContent())
        .toBe('Đang chuyển hướng đến phiên bản tối ưu...');
      await page.waitForURL(`${server.url}/flows-static`);
      await page.getByTestId('flows-static-page').waitFor();
      expect(await page.getByTestId('flows-static-sign-in').getAttribute('href')).toBe('/api/login');
      await screenshot(page, 'sessions-02-flows-static-signed-out');
      await page.close();
    });

    it('a sign-up with an e-mail that has an account says so and keeps what was typed, but the password', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'sessions-sign-up-taken-failed-tab');
      const page = await browser.newPage();
      const email = `taken-${Date.now()}@example.com`;
      const signUp = async (firstName: string) => {
        await page.goto(`${server.url}/api/login`);
        await page.locator('summary').click();
        await page.fill('#register-last-name', 'Phạm');
        await page.fill('#register-first-name', firstName);
        await page.fill('#register-email', email);
        await page.fill('#register-password', 'correct horse battery');
        await page.getByTestId('register-submit').click();
      };
      await signUp('Hạnh');
      await page.getByTestId('flows-heading').waitFor();
      await page.goto(`${server.url}/api/logout`);
      await page.getByTestId('landing-page').waitFor();

      await signUp('Hạnh Thị');
      await expect
        .poll(() => page.getByTestId('register-error').textContent())
        .toBe('Email này đã được đăng ký');
      expect(await page.inputValue('#register-last-name')).toBe('Phạm');
      expect(await page.inputValue('#register-first-name')).toBe('Hạnh Thị');
      expect(await page.inputValue('#register-email')).toBe(email);
      expect(await page.inputValue('#register-password')).toBe('');
      // The e-mail is the field to change.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('register-email');
      await screenshot(page, 'sessions-03-sign-up-taken');

      // Shown once: the page read again starts empty.
      await page.reload();
      expect(await page.inputValue('#register-email')).toBe('');
      await page.close();
    });

    it('creates a session, loads it (the page reloads into its flow) and deletes it', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'sessions-failed-tab');
      const page = await browser.newPage();
      await signUpInBrowser(page, server.url, 'Sương');
      const flow = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Bài blog về trà',
        description: 'Viết một bài blog',
      });
      await callApi(page, server.url, 'POST', '/api/steps', {
        flowId: flow.id,
        order: 1,
        name: 'Dàn ý',
        systemPrompt: 'Lập dàn ý bài viết về trà xanh.',
      });
      const execution = await callApi(page, server.url, 'POST', `/api/flows/${flow.id}/execute`);

      // Reached from the navigation bar.
      await page.getByRole('link', { name: 'Sessions' }).click();
      await page.getByTestId('sessions-empty').waitFor();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Quản lý Sessions');

      await page.getByTestId('create-first-session').click();
      await page.getByTestId('create-session-submit').click();
      expect(await page.getByTestId('session-name-error').textContent()).toBe(
        'Tên session không được để trống',
      );
      await page.getByTestId('session-name-input').fill('Buổi viết sáng');
      await page.getByTestId('session-description-input').fill('Đang viết dàn ý');
      await page.getByTestId('create-session-submit').click();
      await expect
        .poll(() => page.getByTestId('toast').textContent())
        .toContain('Session đã được tạo thành công');
      await page.getByTestId('session-card').waitFor();
      expect(await page.getByTestId('session-name').textContent()).toBe('Buổi viết sáng');
      expect(await page.getByTestId('session-description').textContent()).toBe('Đang viết dàn ý');
      expect(await page.getByTestId('session-updated').textContent()).toMatch(
        /^Cập nhật (bây giờ|\d+ giây trước)$/,
      );
      expect(await page.getByTestId('session-card').textContent()).toContain('Flow: Bài blog về trà');
      await screenshot(page, 'sessions-03-created');

      // Loading reloads the whole page into the session's flow, in run mode, on its execution.
      await page.evaluate(() => {
        (window as unknown as { beforeLoad: boolean }).beforeLoad = true;
      });
      await page.getByTestId('load-session').click();
      await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Session đã được tải');
      await page.waitForURL(`${server.url}/flows/${flow.id}?mode=run`);
      await page.getByTestId('run-mode').waitFor();
      await page.getByTestId('step-card-1').waitFor();
      expect(await page.evaluate(() => (window as unknown as { beforeLoad?: boolean }).beforeLoad)).toBe(
        undefined,
      );
      const latest = await callApi(page, server.url, 'GET', `/api/flows/${flow.id}/executions/latest`);
      expect(latest.id).toBe(execution.id);
      await screenshot(page, 'sessions-04-loaded');

      await page.goto(`${server.url}/sessions`);
      await page.getByTestId('session-card').waitFor();
      await page.getByTestId('delete-session').click();
      expect(await answerConfirmation(page, true)).toBe('Bạn có chắc muốn xóa session này?');
      await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Session đã được xóa');
      await page.getByTestId('sessions-empty').waitFor();
      expect(await callApi(page, server.url, 'GET', '/api/user-sessions')).toEqual([]);

      // The light flow pages list the flow and lead into it; the flows list links to them.
      await page.goto(`${server.url}/flows`);
      await page.getByTestId('flows-other-views').getByText('Danh sách nhanh').click();
      await page.getByTestId('fast-flow').waitFor();
      expect(await page.getByTestId('fast-flow-name').allTextContents()).toEqual(['Bài blog về trà']);
      await page.goto(`${server.url}/workshop`);
      await page.getByTestId('workshop-run').click();
      await page.waitForURL(`${server.url}/workshop/${flow.id}?mode=run`);
      await page.getByTestId('run-mode').waitFor();
      await page.goto(`${server.url}/flows-fast`);
      await page.getByTestId('optimized-version').click();
      await page.getByTestId('flows-redirect').waitFor();
      await page.waitForURL(`${server.url}/flows-static`);
      await page.getByTestId('flows-static-link').first().waitFor();
      expect(await page.getByTestId('flows-static-link').count()).toBe(4);
      await page.close();
    });

    it('shows the guide and the about page', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'sessions-guide-failed-tab');
      const page = await browser.newPage();
      await page.goto(`${server.url}/flows`);
      await page.getByRole('link', { name: 'Guide' }).click();
      await page.getByTestId('guide-page').waitFor();
      expect(await page.getByTestId('guide-step-type').count()).toBe(4);
      expect(await page.getByTestId('guide-create-steps').locator('li').count()).toBe(4);
      expect(await page.getByTestId('guide-mode').allTextContents()).toEqual([
        expect.stringContaining('Edit'),
        expect.stringContaining('Run'),
        expect.stringContaining('Chat'),
      ]);
      expect(await page.getByTestId('guide-tips').textContent()).toContain('3-5');
      expect(await page.getByTestId('guide-back').getAttribute('href')).toBe('/');
      expect(await page.getByTestId('guide-start').getAttribute('href')).toBe('/');
      await screenshot(page, 'sessions-05-guide');

      await page.getByTestId('guide-about').click();
      await page.getByTestId('about-page').waitFor();
      expect(await page.getByTestId('about-how-step').count()).toBe(4);
      expect(await page.getByTestId('about-feature-card').count()).toBe(9);
      const cases = await page.getByTestId('about-case').allTextContents();
      expect(cases).toHaveLength(3);
      for (const text of cases) expect(text).toMatch(/Vấn đề[\s\S]*Giải pháp[\s\S]*Kết quả/);
      expect(await page.getByTestId('about-principle').count()).toBe(4);
      expect(await page.getByTestId('about-cta').getAttribute('href')).toBe('/');
      expect(await page.getByTestId('footer-home').getAttribute('href')).toBe('/');
      expect(await page.getByTestId('footer-about').getAttribute('href')).toBe('/about');
      // Documentation, API, help and legal are text, not links.
      expect(await page.getByTestId('about-footer').locator('a').count()).toBe(2);
      await screenshot(page, 'sessions-06-about');
      await page.close();
    });

    it('shows a tab watching an execution as signed out when another tab signs out', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'sessions-sign-out-failed-tab');
      const page = await browser.newPage();
      // A user of their own, whoever the browser was signed in as.
      await page.goto(`${server.url}/api/logout`);
      await signUpInBrowser(page, server.url, 'Mai');
      const flow = await callApi(page, server.url, 'POST', '/api/flows', {
        name: 'Trà chiều',
        description: 'Ý tưởng cho buổi trà chiều',
      });
      await callApi(page, server.url, 'POST', '/api/steps', {
        flowId: flow.id,
        order: 1,
        name: 'Ý tưởng',
        systemPrompt: 'Gợi ý ý tưởng',
      });
      await callApi(page, server.url, 'POST', `/api/flows/${flow.id}/execute`);
      await page.goto(`${server.url}/flows/${flow.id}?mode=run`);
      await page.getByTestId('step-card-1').waitFor();
      await page.getByTestId('logout-button').waitFor();
      // The run screen follows its execution over the websocket; another tab of the browser signs out.
      const other = await browser.newPage();
      await other.goto(`${server.url}/api/logout`);
      // The server closes the first tab's socket (4401) and the app asks who is signed in: nobody.
      await expect.poll(() => page.getByTestId('logout-button').count(), { timeout: 15_000 }).toBe(0);
      await screenshot(page, 'sessions-07-signed-out-elsewhere');
      await other.close();
      await page.close();
    });
  },
);
