import { describe, expect, it } from 'vitest';
import { receiver, verifies } from '../support/webhook-receiver';
import { callApi, joinWorkspace, missingBrowser, openBrowser, screenshot, signedUpPerson } from './browser';
import { screenshotTabsOnFailure, useServerAndBrowser } from './environment';

const skipReason = missingBrowser();

/** What the receiver on 127.0.0.1 got, and the secret it checks them with (the one the screen showed). */
let secret = '';
let hooks: Awaited<ReturnType<typeof receiver>> | undefined;

describe.skipIf(skipReason !== null)(
  `a workspace's webhooks in the browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const env = useServerAndBrowser(async () => {
      hooks = await receiver(() => secret, { failFirst: false });
      return { WEBHOOK_HOSTS: hooks.host, QUEUE_POLL_SECONDS: '0.5' };
    });

    it('an owner adds a webhook to a local receiver, sends a test delivery and sees it delivered', async () => {
      const { server, browser } = env;
      screenshotTabsOnFailure(browser, 'webhooks-failed');
      try {
        const owner = await signedUpPerson(browser, server.url, 'An');
        const { id: workspaceId } = await callApi(owner.page, server.url, 'POST', '/api/workspaces', {
          name: 'Nhóm Marketing',
        });
        const page = owner.page;
        await page.goto(`${server.url}/workspaces/${workspaceId}`);
        await page.getByTestId('workspace-page').waitFor();
        await page.getByTestId('workspace-tab-webhooks').click();
        await page.getByTestId('webhooks-empty').waitFor();

        // Add: the URL, and the events picked from the checkboxes.
        await page.getByTestId('webhook-url').fill(`http://${hooks!.host}/workbench`);
        await page.getByTestId('webhook-event-review.decided').click();
        await page.getByTestId('webhook-event-execution.completed').click();
        await page.getByTestId('webhook-add').click();
        // The secret, once, with its copy button.
        await page.getByTestId('webhook-secret').waitFor();
        secret = (await page.getByTestId('webhook-secret-value').inputValue()) ?? '';
        expect(secret).toMatch(/^whsec_/);
        await page.getByTestId('webhook-secret-copy').waitFor();
        const row = page.getByTestId('webhook-row');
        await row.waitFor();
        expect(await row.getByTestId('webhook-url-shown').textContent()).toBe(
          `http://${hooks!.host}/workbench`,
        );
        expect(await row.getByTestId('webhook-events-shown').textContent()).toContain('Execution hoàn tất');
        await screenshot(page, 'webhooks-01-added');

        // A test delivery, seen delivered in the deliveries list.
        await row.getByTestId('webhook-test').click();
        const delivery = row.getByTestId('webhook-delivery');
        await delivery.waitFor();
        await row
          .locator('[data-testid="webhook-delivery-status"][data-status="delivered"]')
          .waitFor({ timeout: 30_000 });
        expect(await delivery.getByTestId('webhook-delivery-status').textContent()).toContain('Đã gửi');
        const deliveryId = await delivery.getAttribute('data-delivery-id');
        const received = hooks!.deliveries.find((d) => d.headers['webhook-id'] === deliveryId);
        expect(received).toBeDefined();
        // The receiver verified it with the secret the screen showed (the standardwebhooks package).
        expect(verifies(secret, received!.body, received!.headers)).toBe(true);
        expect(JSON.parse(received!.body)).toMatchObject({ type: 'webhook.test', data: { workspaceId } });
        await screenshot(page, 'webhooks-02-delivered');

        // Rotating shows the new secret once; deleting asks first.
        await row.getByTestId('webhook-rotate').click();
        await page.getByTestId('confirm-dialog-confirm').click();
        await row.getByTestId('webhook-secret').waitFor();
        expect(await row.getByTestId('webhook-secret-value').inputValue()).not.toBe(secret);
        await screenshot(page, 'webhooks-03-rotated');

        // Another member (an editor) sees no Webhooks section.
        const other = await openBrowser();
        try {
          const editor = await signedUpPerson(other, server.url, 'Bình');
          await joinWorkspace(server.url, owner, workspaceId, editor, 'editor');
          await editor.page.goto(`${server.url}/workspaces/${workspaceId}?tab=webhooks`);
          await editor.page.getByTestId('workspace-tab-flows').waitFor();
          expect(await editor.page.getByTestId('workspace-tab-webhooks').count()).toBe(0);
          expect(await editor.page.getByTestId('workspace-webhooks').count()).toBe(0);
          expect(await editor.page.locator('[data-testid^="workspace-tab-"]').count()).toBe(3);
        } finally {
          await other.close();
        }

        await row.getByTestId('webhook-delete').click();
        await page.getByTestId('confirm-dialog-confirm').click();
        await page.getByTestId('webhooks-empty').waitFor();
      } finally {
        await hooks?.close();
      }
    });
  },
);
