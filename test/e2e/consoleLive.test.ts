/// <reference lib="dom" />
/**
 * The console follows what happens without a reload: a payment's page shows its timeline (in English and in
 * Spanish) and a webhook attempt recorded while it is open appears in it; the payments list shows a payment
 * resolved while it is open, the inbox a transfer that arrives while it is open, and the refunds page a refund asked for and canceled elsewhere. Between changes the
 * console's checks are answered 304 (the ETag it holds): the first one made by its 10 s timer, the others
 * asked for at once (a tab shown again). The home page shows the volume per token as exact decimals and the chain watchers. Every view axe-clean.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createApiKey } from '@checkout/db';
import type { Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { axeViolations, browserUnavailable, launchBrowser, type TestBrowser } from './support/browser.ts';
import { artifacts } from './support/checkoutHarness.ts';
import { consoleEnv, signIn } from './support/console.ts';
import { installTestWallet } from './support/testWallet.ts';

const axeSource = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');
const usdc = {
  blockchain: 'ethereum',
  network: 'mainnet',
  address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
};
const token = { symbol: 'USDC', name: 'USD Coin', decimal_count: 6, ...usdc };
const hashOf = (n: number) => `0x${n.toString(16).padStart(64, 'd')}`;

/** The console checks for changes every 10 s while visible, and at once when its tab is shown again: now. */
async function checkNow(page: Page): Promise<void> {
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
}

async function expectAccessible(page: Page): Promise<void> {
  await page.evaluate(axeSource);
  expect(await axeViolations(page)).toEqual([]);
}

describe.skipIf(databaseUnavailable() || browserUnavailable())('merchant console, live', () => {
  let service: TestService;
  let browser: TestBrowser;
  let page: Page;
  const privateKey = generatePrivateKey();
  const wallet = privateKeyToAddress(privateKey);
  let productId: string;
  let receiving: string;
  let paymentId: string;
  let deliveryId: string;
  let merchantId: string;
  let keyHeaders: Record<string, string>;

  /** A resolved payment of `units` USDC base units, `minutesAgo` minutes ago. */
  async function pay(n: number, units: string, minutesAgo: number): Promise<string> {
    const id = crypto.randomUUID();
    await service.deps.db.kysely
      .insertInto('resolved_payments')
      .values({
        id,
        product_id: productId,
        expected_payment_id: crypto.randomUUID(),
        is_test: false,
        dollar_amount: '1.00',
        metadata: JSON.stringify(null),
        user_email: `shopper${n}@example.com`,
        custom_fields: JSON.stringify({}),
        chain_id: 1,
        expected_token: JSON.stringify(token),
        received_token: JSON.stringify(token),
        expected_token_amount: units,
        received_token_amount: units,
        amount_difference: '0',
        receiving_address: receiving,
        sender_address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        tx_id: hashOf(n),
        log_index: 0,
        tx_success: true,
        tx_failure: false,
        swapped: false,
        late: false,
        created_at: new Date(Date.now() - minutesAgo * 60_000),
      })
      .execute();
    return id;
  }

  /** Records attempt `attempt` of the payment's webhook, answered `status`. */
  async function attempt(n: number, status: number, answer: string): Promise<void> {
    await service.deps.db.kysely
      .insertInto('webhook_attempts')
      .values({
        id: crypto.randomUUID(),
        delivery_id: deliveryId,
        attempt: n,
        started_at: new Date(),
        duration_ms: 25,
        status_code: status,
        error: null,
        response_snippet: answer,
      })
      .execute();
  }

  beforeAll(async () => {
    service = await startTestService({ temporal: false, env: await consoleEnv() });
    browser = await launchBrowser();
    const key = await createApiKey(service.deps.db.kysely, { address: wallet });
    receiving = key.address;
    merchantId = key.merchantId;
    keyHeaders = { authorization: `Bearer ${key.key}`, 'x-address': key.address };
    const product = await service.request('POST', '/api/v1/products', {
      headers: keyHeaders,
      json: { product: { name: 'Tea', email: 'owner@example.com', token: usdc } },
    });
    productId = product.body.product.id;
    // 0.1 + 0.2 USDC: a float would show 0.30000000000000004.
    await pay(1, '100000', 30);
    paymentId = await pay(2, '200000', 20);
    deliveryId = crypto.randomUUID();
    await service.deps.db.kysely
      .insertInto('webhook_deliveries')
      .values({
        id: deliveryId,
        merchant_id: key.merchantId,
        event_type: 'resolved_payment.created',
        subject_id: paymentId,
        product_id: productId,
        url: 'https://shop.example/hooks',
        payload: '{}',
        status: 'pending',
        last_status_code: 503,
        last_error: null,
        next_attempt_at: new Date(),
        redelivery_of: null,
        sequence_subject: paymentId,
        event_sequence: 1,
        created_at: new Date(Date.now() - 19 * 60_000),
        delivered_at: null,
      })
      .execute();
    await attempt(1, 503, 'busy, try later');
    page = await browser.context.newPage();
    await page.setViewportSize({ width: 1024, height: 800 });
    await installTestWallet(page, { privateKey, rpcUrl: 'http://127.0.0.1:9', chainId: 1 });
  });
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });

  it("shows a payment's timeline in English and Spanish, and an attempt recorded while it is open", async () => {
    await page.goto(`${service.url}/console/payment/${paymentId}`);
    await signIn(page, wallet);
    const entries = page.locator('console-payment ol.timeline li');
    const attempts = entries.and(page.locator('[data-type="webhook_attempt"]'));
    await attempts.filter({ hasText: 'Webhook resolved_payment.created, attempt 1: HTTP 503' }).waitFor();
    expect(await entries.first().textContent()).toContain('Resolved: 0.2 USDC received');
    await expectAccessible(page);

    // While nothing changes the console's check is answered 304; a new attempt shows without a reload.
    // The first check comes from the console's own timer, unasked.
    await page.waitForResponse((r) => r.url().includes(`/${paymentId}/timeline`) && r.status() === 304);
    await attempt(2, 200, 'ok');
    await checkNow(page);
    await attempts.filter({ hasText: 'attempt 2: HTTP 200' }).waitFor();
    await page.screenshot({ path: `${artifacts}console-timeline.png`, fullPage: true });

    await page.getByRole('combobox', { name: 'Language' }).selectOption('es');
    await page.getByRole('heading', { name: 'Cronología' }).waitFor();
    await attempts.filter({ hasText: 'Webhook resolved_payment.created, intento 2: HTTP 200' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('combobox', { name: 'Idioma' }).selectOption('en');
  });

  it('shows a payment resolved while the list is open, and the volume per token exactly', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Payments' }).click();
    const rows = page.locator('console-payments tbody tr');
    await rows.filter({ hasText: 'shopper2@example.com' }).waitFor();
    expect(await rows.count()).toBe(2);
    const unchanged = page.waitForResponse(
      (r) => /\/api\/v1\/resolved_payments(\?|$)/.test(r.url()) && r.status() === 304,
    );
    await checkNow(page);
    await unchanged;
    await pay(3, '300000', 0);
    await checkNow(page);
    await rows.filter({ hasText: 'shopper3@example.com' }).waitFor();
    expect(await rows.count()).toBe(3);
    await expectAccessible(page);

    await page.getByRole('navigation').getByRole('link', { name: 'Home' }).click();
    const volume = page.locator('console-home tbody tr').filter({ hasText: 'USDC' });
    await volume.waitFor();
    expect((await volume.locator('td').allTextContents()).map((c) => c.trim())).toEqual([
      'USDC',
      'ethereum mainnet',
      '0.6 USDC',
      '3',
    ]);
    await page.getByRole('heading', { name: 'Chain watchers' }).waitFor();
    await expectAccessible(page);
  });

  it('shows a transfer that fits no order as it arrives while the inbox is open', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Unmatched transfers' }).click();
    await page.locator('console-inbox').getByText('Nothing here yet.').waitFor();
    await service.deps.db.kysely
      .insertInto('unmatched_transfers')
      .values({
        id: crypto.randomUUID(),
        merchant_id: merchantId,
        product_id: productId,
        chain_id: 1,
        tx_hash: hashOf(9),
        log_index: 0,
        block_number: '900',
        block_hash: null,
        token_address: usdc.address.toLowerCase(),
        token: JSON.stringify(token),
        amount: '4250000',
        sender_address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
        receiving_address: receiving.toLowerCase(),
        kind: 'unexpected',
        status: 'open',
        resolved_payment_id: null,
        expected_payment_id: null,
        note: null,
        created_at: new Date(),
        updated_at: new Date(),
      })
      .execute();
    await checkNow(page);
    await page.locator('console-inbox li.card').filter({ hasText: '4.25 USDC' }).waitFor();
    await expectAccessible(page);
  });

  it('shows a refund asked for and then canceled elsewhere while the refunds page is open', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Refunds' }).click();
    const refunds = page.locator('console-refunds');
    await refunds.getByText('Nothing here yet.').waitFor();
    const asked = await service.request('POST', `/api/v1/resolved_payments/${paymentId}/refunds`, {
      headers: keyHeaders,
      json: { reason: 'One cup less', amount: '0.05' },
    });
    expect(asked.status, asked.text).toBe(201);
    await checkNow(page);
    const row = refunds.locator('tbody tr').filter({ hasText: '0.05 USDC' });
    await row.filter({ hasText: 'Awaiting address' }).waitFor();
    const canceled = await service.request('POST', `/api/v1/refunds/${asked.body.refund.id}/cancel`, {
      headers: keyHeaders,
      json: {},
    });
    expect(canceled.status, canceled.text).toBe(200);
    await checkNow(page);
    await row.filter({ hasText: 'Canceled' }).waitFor();
    await expectAccessible(page);
  });
});
