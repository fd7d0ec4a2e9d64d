/// <reference lib="dom" />
/**
 * What the merchant does in the console that the worker carries out, each checked in the service's state
 * after the click: an unmatched transfer attached to the order it was meant for (whose checkout then records
 * it) and another dismissed with a note; a test event sent to the product's endpoint, its delivery listed with
 * its attempt; an API key rolled with an overlap, the old and new keys both listed, the old one with the
 * time it stops — and both working until then; a product deactivated and activated again from its card, and
 * its element previewed beside the snippet, loaded from the service. A `viewer` signed in with its own wallet
 * sees none of the write controls on any page.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createApiKey } from '@checkout/db';
import type { Page } from 'playwright-core';
import { type Hex, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { waitFor, waitForSession } from '../support/waitFor.ts';
import { axeViolations, browserUnavailable } from './support/browser.ts';
import { artifacts, type CheckoutHarness, startCheckoutHarness } from './support/checkoutHarness.ts';
import { consoleEnv, signIn } from './support/console.ts';
import { installTestWallet } from './support/testWallet.ts';

const axeSource = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');
/** The dev shopper whose stray transfers reach the merchant's wallet. */
const shopperIndex = 4;

async function expectAccessible(page: Page): Promise<void> {
  await page.evaluate(axeSource);
  expect(await axeViolations(page)).toEqual([]);
}

interface Transfer {
  id: string;
  tx_hash: string;
  status: string;
  amount: string;
  note: string | null;
  expected_payment_id: string | null;
}

describe.skipIf(databaseUnavailable() || browserUnavailable())('the console’s actions, carried out', () => {
  let h: CheckoutHarness;
  const merchantKey = `0x${randomBytes(32).toString('hex')}` as Hex;
  const merchantAddress = privateKeyToAddress(merchantKey);
  let headers: Record<string, string>;
  let product: { id: string; slug: string };

  beforeAll(async () => {
    h = await startCheckoutHarness({
      env: {
        CONFIRMATIONS_BINANCE_SMART_CHAIN_TESTNET: '1',
        CHECKOUT_SCAN_INTERVAL_MS: '100',
        ...(await consoleEnv()),
      },
    });
    const created = await createApiKey(h.service.deps.db.kysely, { address: merchantAddress });
    headers = { authorization: `Bearer ${created.key}`, 'x-address': created.address };
    const res = await h.service.request('POST', '/api/v1/products', {
      headers,
      json: {
        product: {
          name: 'Tea leaves',
          email: 'merchant@example.com',
          active: true,
          send_webhook: true,
          webhook_url: h.receiver.url,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: h.busd },
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    product = res.body.product;
  });
  afterAll(async () => {
    await h?.stop();
  });

  /** A console page at `path`, signed in with the merchant's wallet (or another member's). */
  async function signedIn(path: string, privateKey: Hex = merchantKey): Promise<Page> {
    await h.browser.context.clearCookies();
    const page = await h.browser.context.newPage();
    await installTestWallet(page, { privateKey, rpcUrl: h.chain.chain.rpcUrl, chainId: 97 });
    await page.goto(`${h.service.url}${path}`);
    await signIn(page, privateKeyToAddress(privateKey));
    return page;
  }

  const transfers = async () => {
    const res = await h.service.request('GET', '/api/v1/unmatched_transfers', { headers });
    expect(res.status, res.text).toBe(200);
    return res.body.unmatched_transfers as Transfer[];
  };

  it('attaches one unmatched transfer to its order, whose checkout records it, and dismisses another', async () => {
    const expected = await h.service.request('POST', `/api/v1/products/${product.id}/expected_payments`, {
      headers,
      json: { dollar_amount: '12', customer_email: 'customer@example.com' },
    });
    expect(expected.status, expected.text).toBe(200);
    const expectedId = expected.body.expected_payment.id as string;
    const opened = await h.service.request('POST', `/api/v1/checkout/${product.slug}/sessions`, {
      json: {
        email: 'customer@example.com',
        token_address: h.busd,
        expected_payment_id: expectedId,
        sender_address: h.chain.deployment.shoppers[shopperIndex]!.address,
      },
    });
    expect(opened.status, opened.text).toBe(200);
    const session = opened.body.session as { id: string };
    // Two transfers the order's amount is not, without a reference: neither is taken by the open checkout.
    const meant = (
      await h.chain.transfer(shopperIndex, h.busd, merchantAddress, parseUnits('5', 18))
    ).toLowerCase();
    const tip = (
      await h.chain.transfer(shopperIndex, h.busd, merchantAddress, parseUnits('3', 18))
    ).toLowerCase();
    await waitFor(
      transfers,
      (list) => [meant, tip].every((tx) => list.some((t) => t.tx_hash === tx && t.status === 'open')),
      'both transfers listed as unmatched',
    );

    const page = await signedIn('/console/inbox');
    try {
      const card = (amount: string) => page.locator('console-inbox li').filter({ hasText: `${amount} BUSD` });
      await card('5').waitFor();
      await card('3').waitFor();
      await expectAccessible(page);

      await card('5').getByLabel('Resolved or expected payment id').fill(expectedId);
      await card('5').getByRole('button', { name: 'Attach' }).click();
      await card('5').waitFor({ state: 'detached' });
      const resolved = await waitForSession(h.service, session.id, ['resolved']);
      expect(resolved.tx_hash).toBe(meant);

      await card('3').getByLabel('Note').fill('A tip, kept with thanks');
      await card('3').getByRole('button', { name: 'Dismiss' }).click();
      await card('3').waitFor({ state: 'detached' });
      await page.locator('console-inbox').getByText('Nothing here yet.').waitFor();
      await expectAccessible(page);

      const after = await transfers();
      expect(after.find((t) => t.tx_hash === meant)).toMatchObject({
        status: 'attached',
        expected_payment_id: expectedId,
      });
      expect(after.find((t) => t.tx_hash === tip)).toMatchObject({
        status: 'dismissed',
        note: 'A tip, kept with thanks',
      });
    } finally {
      await page.close();
    }
  });

  it('sends a test event and lists its delivery with the attempt the endpoint answered', async () => {
    const before = h.receiver.received.length;
    const page = await signedIn('/console/webhooks');
    try {
      const form = page.getByRole('form', { name: 'Send a test event' });
      await form.getByLabel('Send a test event').selectOption('refund.updated');
      await form.getByRole('button', { name: 'Send' }).click();
      await page.getByRole('status').filter({ hasText: 'the endpoint answered 200' }).waitFor();
      const [hook] = (await h.receiver.waitFor(before + 1)).slice(before);
      expect(hook!.headers['x-webhook-event']).toBe('refund.updated');
      expect(hook!.headers['x-test-event']).toBe('true');

      const row = page.locator('console-webhooks tbody tr').filter({ hasText: 'refund.updated' });
      await row
        .filter({ hasText: '(test)' })
        .getByText(/#1 .*: 200 in \d+ ms/)
        .waitFor();
      await expectAccessible(page);
      await page.screenshot({ path: `${artifacts}console-test-event.png`, fullPage: true });

      const listed = await h.service.request('GET', `/api/v1/products/${product.id}/webhook_deliveries`, {
        headers,
      });
      const delivery = (listed.body.webhook_deliveries as Array<Record<string, unknown>>).find(
        (d) => d.event_id === hook!.headers['x-event-id'],
      );
      expect(delivery).toMatchObject({ event_type: 'refund.updated', test: true, status: 'succeeded' });
      expect(delivery!.attempts).toEqual([expect.objectContaining({ attempt: 1, status_code: 200 })]);
    } finally {
      await page.close();
    }
  });

  it('rolls a key with an overlap: both keys listed, the old one with when it stops, both working', async () => {
    const made = await h.service.request('POST', '/api/v1/api_keys', {
      headers,
      json: { name: 'Shop server', scopes: ['payments:read'] },
    });
    expect(made.status, made.text).toBe(201);
    const oldKey = made.body.key as string;
    const page = await signedIn('/console/keys');
    try {
      const card = page.locator('console-keys li').filter({ hasText: 'Shop server' });
      await card.waitFor();
      expect(await card.getByText('Stops working').count()).toBe(0);
      const roll = card.getByRole('form', { name: /^Roll Shop server ck_/ });
      await roll.getByLabel('Old key works for (minutes)').fill('90');
      await roll.getByRole('button', { name: 'Roll' }).click();
      const shown = page.getByRole('status').filter({ hasText: 'The new key, shown this once' });
      const newKey = (await shown.locator('code').textContent()) ?? '';
      expect(newKey).toMatch(/^ck_/);
      await card.nth(1).waitFor();
      const old = card.filter({ hasText: 'Stops working' });
      await old.waitFor();
      expect(await card.count()).toBe(2);
      expect(await old.count()).toBe(1);
      await expectAccessible(page);
      await page.screenshot({ path: `${artifacts}console-key-rolled.png`, fullPage: true });

      const keys = (await h.service.request('GET', '/api/v1/api_keys', { headers })).body.api_keys as Array<{
        name: string;
        prefix: string;
        expires_at: string | null;
      }>;
      const named = keys.filter((k) => k.name === 'Shop server');
      expect(named).toHaveLength(2);
      const ending = named.find((k) => k.expires_at !== null)!;
      expect(oldKey.startsWith(ending.prefix)).toBe(true);
      const minutes = (Date.parse(ending.expires_at!) - Date.now()) / 60_000;
      expect(minutes).toBeGreaterThan(80);
      expect(minutes).toBeLessThanOrEqual(90);
      expect(await old.locator('code').textContent()).toBe(`${ending.prefix}…`);
      for (const key of [oldKey, newKey]) {
        const read = await h.service.request('GET', '/api/v1/resolved_payments', {
          headers: { authorization: `Bearer ${key}`, 'x-address': merchantAddress },
        });
        expect(read.status, read.text).toBe(200);
      }
    } finally {
      await page.close();
    }
  });

  it('deactivates and activates a product from its card and previews its element from the service', async () => {
    const active = async () => {
      const res = await h.service.request('GET', '/api/v1/products', { headers });
      expect(res.status, res.text).toBe(200);
      return (res.body.products as Array<{ id: string; active: boolean }>).find((p) => p.id === product.id)
        ?.active;
    };
    const page = await signedIn('/console/products');
    try {
      const card = page.locator('console-products li').filter({ hasText: 'Tea leaves' });
      await card.getByRole('button', { name: 'Deactivate' }).click();
      await card.getByRole('button', { name: 'Activate' }).waitFor();
      expect(await active()).toBe(false);
      await card.getByRole('button', { name: 'Activate' }).click();
      await card.getByRole('button', { name: 'Deactivate' }).waitFor();
      expect(await active()).toBe(true);

      const scripts: string[] = [];
      page.on('request', (r) => {
        if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
      });
      await card.getByRole('button', { name: 'Preview' }).click();
      const preview = card.getByRole('region', { name: 'Preview of Tea leaves' });
      // The product's own view, fetched by the element: its name (a product has no price of its own; an
      // order's expected payment brings one).
      await preview.getByRole('heading', { name: 'Tea leaves' }).waitFor();
      expect(scripts).toContain('/widget/crypto-checkout.js');
      expect(await card.getByRole('button', { name: 'Preview' }).getAttribute('aria-expanded')).toBe('true');
      await expectAccessible(page);
      await page.screenshot({ path: `${artifacts}console-product-preview.png`, fullPage: true });
    } finally {
      await page.close();
    }
  });

  it('shows a viewer none of the write controls, page by page', async () => {
    const viewerKey = generatePrivateKey();
    const added = await h.service.request('POST', '/api/v1/team_members', {
      headers,
      json: { address: privateKeyToAddress(viewerKey), role: 'viewer' },
    });
    expect(added.status, added.text).toBe(200);
    const payments = await h.service.request('GET', '/api/v1/resolved_payments', { headers });
    const paymentId = (payments.body.resolved_payments as Array<{ id: string }>)[0]!.id;
    const page = await signedIn('/console/products', viewerKey);
    try {
      const nav = page.getByRole('navigation');
      const card = page.locator('console-products li').filter({ hasText: 'Tea leaves' });
      await card.getByRole('button', { name: 'Copy' }).waitFor();
      expect(await page.getByRole('form', { name: 'Create' }).count()).toBe(0);
      expect(await card.getByRole('button', { name: /Activate|Deactivate/ }).count()).toBe(0);
      await expectAccessible(page);

      await nav.getByRole('link', { name: 'Webhooks' }).click();
      const row = page.locator('console-webhooks tbody tr').filter({ hasText: 'refund.updated' });
      await row.waitFor();
      expect(await page.locator('console-webhooks').getByRole('button').count()).toBe(0);
      expect(await page.getByRole('form', { name: 'Send a test event' }).count()).toBe(0);
      await expectAccessible(page);

      await nav.getByRole('link', { name: 'API keys' }).click();
      await page.locator('console-keys li').filter({ hasText: 'Shop server' }).first().waitFor();
      expect(await page.locator('console-keys').getByRole('button').count()).toBe(0);
      expect(await page.locator('console-keys').getByRole('form').count()).toBe(0);
      await expectAccessible(page);

      for (const [link, tag] of [
        ['Refunds', 'console-refunds'],
        ['Unmatched transfers', 'console-inbox'],
      ] as const) {
        await nav.getByRole('link', { name: link }).click();
        await page.locator(tag).getByRole('heading', { level: 1 }).waitFor();
        expect(await page.locator(tag).getByRole('button').count()).toBe(0);
      }

      await page.goto(`${h.service.url}/console/payment/${paymentId}`);
      await page.locator('console-payment').getByRole('heading', { level: 1 }).waitFor();
      expect(await page.locator('console-payment').getByRole('form').count()).toBe(0);
      expect(await page.locator('console-payment').getByRole('button').count()).toBe(0);
      await expectAccessible(page);
    } finally {
      await page.close();
    }
  });
});
