/// <reference lib="dom" />
/**
 * `<crypto-checkout>` tells the truth about its session, in Chromium against the real service, Temporal and
 * a local chain: a second tab of the same payment link follows the first's payment (and reads the session
 * again before its wallet would sign), a refused submission shows the session as it is and never a 5xx's
 * words, a payment request that expired shows a late payment as paid, Back after the redirect shows the paid
 * checkout (reloaded, and restored from the back-forward cache, also when the link was paid elsewhere while
 * the page sat in the cache), an attempt given up is closed, and a transfer of another amount into a
 * payment request withdraws the request at once.
 */
import type { Page, Request } from 'playwright-core';
import { type Address, formatUnits, type Hex, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { browserUnavailable, launchBrowser } from './support/browser.ts';
import { artifacts, type CheckoutHarness, startCheckoutHarness } from './support/checkoutHarness.ts';
import { installTestWallet } from './support/testWallet.ts';

describe.skipIf(databaseUnavailable() || browserUnavailable())('checkout element and its session', () => {
  let h: CheckoutHarness;

  beforeAll(async () => {
    h = await startCheckoutHarness({ env: { CHECKOUT_SCAN_INTERVAL_MS: '100' } });
  });
  afterAll(async () => {
    if (h) await automine(true);
    await h?.stop();
  });

  const payNow = (page: Page) => page.getByRole('button', { name: 'Pay now' });
  /** Lets the node mine each transaction as it arrives, or hold them; turned back on, it mines what it held. */
  const automine = async (on: boolean) => {
    const rpc = h.chain.publicClient.request as (args: {
      method: string;
      params: unknown[];
    }) => Promise<unknown>;
    await rpc({ method: 'evm_setAutomine', params: [on] });
    if (on) await rpc({ method: 'evm_mine', params: [] });
  };
  const pick = (page: Page) => page.getByRole('button', { name: 'Pay with Test Wallet' });
  /** Fills the form and picks the test wallet: the tab is on review. */
  const review = async (page: Page) => {
    await h.fillShopper(page);
    await pick(page).click();
    await payNow(page).waitFor();
  };
  const sessionOf = async (expectedPaymentId: string) => {
    const row = await h.service.deps.db.kysely
      .selectFrom('checkout_sessions')
      .select('id')
      .where('expected_payment_id', '=', expectedPaymentId)
      .executeTakeFirstOrThrow();
    const res = await h.service.request('GET', `/api/v1/checkout/sessions/${row.id}`);
    return res.body.session as { id: string; status: string; payment_uri: string; late: boolean } & Record<
      string,
      unknown
    >;
  };

  /** The same payment link open in two tabs of one shopper; `prepare` runs on the second before its review. */
  const twoTabs = async (dollars: string, prepare?: (page: Page) => Promise<unknown>) => {
    const product = await h.createProduct();
    const expected = await h.expectPayment(product.id, dollars);
    const key = await h.freshShopper('20');
    const path = `/checkout/${product.slug}?expected_payment=${expected.id}`;
    const first = await h.openPage(key, path);
    const second = await h.openPage(key, path);
    await prepare?.(second.page);
    await review(first.page);
    await review(second.page);
    return { first, second };
  };

  it('shows a second tab of the same payment link paid by the first: it follows the session and offers no Pay now', async () => {
    const { first, second } = await twoTabs('7.00');

    await payNow(first.page).click();
    const paid = await h.expectPaidOnce(first.page, first.wallet);
    // The second tab hears it from the session's events, with nothing done in it.
    await second.page.getByText('Payment received. Thank you!').waitFor({ timeout: 15_000 });
    expect(await payNow(second.page).count()).toBe(0);
    expect(await pick(second.page).count()).toBe(0);
    expect(second.wallet.sent).toEqual([]);
    expect(await h.outcome(second.page)).toMatchObject({
      type: 'checkout-success',
      detail: { txHash: paid.detail.txHash },
    });
    await h.expectAccessible(second.page, 'second tab, paid in the first');
    await second.page.screenshot({ path: `${artifacts}second-tab-paid.png` });
    await first.page.close();
    await second.page.close();
  });

  it('reads the session again before the wallet signs: a tab that missed the payment sends nothing', async () => {
    // The second tab's stream never gets through (a proxy that drops it): only reading the session can tell it.
    const { first, second } = await twoTabs('7.10', (page) =>
      page.route('**/events', (route) => route.abort()),
    );
    await payNow(first.page).click();
    await h.expectPaidOnce(first.page, first.wallet);

    await payNow(second.page).click();
    await second.page.getByText('Payment received. Thank you!').waitFor();
    expect(second.wallet.calls).not.toContain('eth_sendTransaction');
    expect(second.wallet.sent).toEqual([]);
    await first.page.close();
    await second.page.close();
  });

  it('shows the session, not the words of a 5xx, when the service does not take the hash; the retry sends nothing twice', async () => {
    const product = await h.createProduct();
    const expected = await h.expectPayment(product.id, '7.20');
    const { page, wallet } = await h.openPage(
      await h.freshShopper('20'),
      `/checkout/${product.slug}?expected_payment=${expected.id}`,
    );
    await page.route('**/transactions', (route) =>
      route.fulfill({
        status: 503,
        json: {
          error_code: 'service_unavailable',
          message: 'The workflow service (Temporal) did not take the transaction; retry',
          errors: [],
        },
      }),
    );
    await review(page);
    // The node holds the transaction unmined until the retry is taken: otherwise the watcher's scan may
    // resolve the session first and the retry is never offered.
    await automine(false);
    await payNow(page).click();
    await page.getByText('The checkout service could not answer just now.').waitFor();
    const text = await h.elementText(page);
    expect(text).not.toContain('Temporal');
    expect(text).toContain('Payment sent. Waiting for the network…');
    expect(await payNow(page).count()).toBe(0);
    await h.expectAccessible(page, 'submission not taken');
    await page.screenshot({ path: `${artifacts}submission-not-taken.png` });

    await page.unroute('**/transactions');
    const taken = page.waitForResponse((r) => r.url().endsWith('/transactions') && r.status() === 200);
    await page.getByRole('button', { name: 'Try again' }).click();
    await taken;
    await automine(true);
    await h.expectPaidOnce(page, wallet);
    await page.close();
  });

  it('keeps watching an expired payment request, and shows a late payment as paid after the time limit', async () => {
    const product = await h.createProduct({ expires_in_minutes: 5 });
    const expected = await h.expectPayment(product.id, '6.00');
    const { page, outcomes } = await h.openPage(
      0,
      `/checkout/${product.slug}?expected_payment=${expected.id}`,
      { wallet: { announce: false } },
    );
    await h.fillShopper(page);
    await page.getByRole('button', { name: 'Pay from another device' }).click();
    await page.getByRole('img', { name: /^QR code of the payment request/ }).waitFor();
    const session = await sessionOf(expected.id);
    const amount = BigInt(/uint256=(\d+)$/.exec(session.payment_uri)![1]!);

    // The session's workflow runs out of time now, as its timer would (the sandbox's `expired`).
    const expire = await h.service.request('POST', `/sandbox/checkout/sessions/${session.id}/simulate`, {
      headers: h.merchant.headers,
      json: { outcome: 'expired' },
    });
    expect(expire.status, expire.text).toBe(200);
    await page.getByText('This checkout has expired.').waitFor();
    await page.getByText('Sent the payment already? Keep this page open').waitFor();
    await h.expectAccessible(page, 'payment request expired, still watched');
    await expect.poll(async () => (await sessionOf(expected.id)).status, { timeout: 30_000 }).toBe('expired');
    expect(outcomes.map((o) => o.detail.reason)).toEqual(['expired']);

    // Sent from the phone, mined after the time limit: the service takes it late, and the page shows it.
    await h.chain.transfer(3, h.busd, h.merchant.address as Address, amount);
    await page.getByText('Payment received after the time limit. Thank you!').waitFor({ timeout: 30_000 });
    expect((await sessionOf(expected.id)).late).toBe(true);
    expect(outcomes.map((o) => o.type)).toEqual(['checkout-failure', 'checkout-success']);
    await h.expectAccessible(page, 'paid late');
    await page.screenshot({ path: `${artifacts}payment-request-paid-late.png` });
    await page.close();
  });

  it('shows the paid checkout on Back after the redirect to success_url, without leaving again', async () => {
    const thanks = h.site.page(
      '/thanks',
      '<!doctype html><html lang="en"><head><title>Thank you</title></head><body><main><h1>Thank you</h1></main></body></html>',
    );
    const product = await h.createProduct({
      open_amount: true,
      tax_rate: 0,
      custom_fields: [],
      success_url: thanks,
    });
    const path = `/checkout/${product.slug}`;
    const { page, wallet, outcomes } = await h.openPage(await h.freshShopper('20'), path, {
      cancelOutcome: false,
    });
    await page.getByLabel('E-mail').fill('shopper@example.com');
    await page.getByLabel('Amount (USD)').fill('4.25');
    await pick(page).click();
    await payNow(page).click();
    await page.waitForURL(thanks, { timeout: 30_000 });
    expect(wallet.sent).toHaveLength(1);

    // Back loads the page again (Playwright's Chromium keeps no back-forward cache): the tab's attempt is found.
    await page.goBack();
    await page.getByText('Payment received. Thank you!').waitFor();
    expect(await payNow(page).count()).toBe(0);
    expect(await pick(page).count()).toBe(0);
    expect(await page.getByLabel('Amount (USD)').count()).toBe(0);
    expect(await h.elementText(page)).not.toContain('Taking you back');
    await page.waitForTimeout(4_000);
    expect(page.url()).toBe(`${h.service.url}${path}`);
    expect(outcomes).toHaveLength(1);
    await h.expectAccessible(page, 'back after the redirect');
    await page.close();
  });

  it('shows the paid checkout when Back restores the page from the back-forward cache (pageshow persisted)', async () => {
    const thanks = h.site.page(
      '/thanks-cached',
      '<!doctype html><html lang="en"><head><title>Thanks</title></head><body><main><h1>Thanks</h1></main></body></html>',
    );
    const product = await h.createProduct({ success_url: thanks });
    const expected = await h.expectPayment(product.id, '4.50');
    const browser = await launchBrowser({ backForwardCache: true });
    try {
      const page = await browser.context.newPage();
      const wallet = await installTestWallet(page, {
        chainId: 97,
        privateKey: (await h.freshShopper('20')) as Hex,
        rpcUrl: h.chain.chain.rpcUrl,
      });
      await page.addInitScript(() => {
        const w = window as unknown as { __shows: boolean[]; __outcomes: number };
        w.__shows = [];
        w.__outcomes = 0;
        window.addEventListener('pageshow', (event) => w.__shows.push(event.persisted));
        document.addEventListener('checkout-success', () => w.__outcomes++);
      });
      const url = `${h.service.url}/checkout/${product.slug}?expected_payment=${expected.id}`;
      await page.goto(url);
      await review(page);
      await payNow(page).click();
      await page.getByText('Taking you back to').waitFor({ timeout: 30_000 });
      await page.waitForURL(thanks, { timeout: 30_000 });
      expect(wallet.sent).toHaveLength(1);

      await page.goBack({ waitUntil: 'commit' });
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { __shows: boolean[] }).__shows))
        .toEqual([false, true]);
      // Restored as it was left, then read again: paid, and no redirect on its way any more.
      await page.getByText('Payment received. Thank you!').waitFor();
      await expect.poll(() => h.elementText(page)).not.toContain('Taking you back');
      expect(await payNow(page).count()).toBe(0);
      await page.waitForTimeout(4_000);
      expect(page.url()).toBe(url);
      expect(await page.evaluate(() => (window as unknown as { __outcomes: number }).__outcomes)).toBe(1);
    } finally {
      await browser.close();
    }
  });

  it('closes the attempt it gives up when the shopper changes the amount', async () => {
    const product = await h.createProduct({ open_amount: true, tax_rate: 0, custom_fields: [] });
    const { page } = await h.openPage(await h.freshShopper('20'), `/checkout/${product.slug}`);
    const closes: Request[] = [];
    const secrets: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/close')) closes.push(request);
    });
    page.on('response', async (response) => {
      if (!response.url().endsWith('/sessions')) return;
      const { client_secret: secret } = (await response.json().catch(() => ({}))) as {
        client_secret?: string | null;
      };
      if (secret) secrets.push(secret);
    });
    await page.getByLabel('E-mail').fill('shopper@example.com');
    await page.getByLabel('Amount (USD)').fill('3.00');
    await pick(page).click();
    await payNow(page).waitFor();
    const { id } = await h.service.deps.db.kysely
      .selectFrom('checkout_sessions')
      .select('id')
      .where('product_id', '=', product.id)
      .executeTakeFirstOrThrow();
    await page.getByRole('button', { name: 'Use another wallet' }).click();
    await page.getByLabel('Amount (USD)').fill('3.50');
    await expect.poll(() => closes.length).toBe(1);
    expect(closes[0]!.method()).toBe('POST');
    expect(closes[0]!.url()).toBe(`${h.service.url}/api/v1/checkout/sessions/${id}/close`);
    // Only the opener closes it: with the secret the service gave the page when the session opened.
    expect(secrets[0]).toMatch(/^cs_/);
    expect(closes[0]!.headers()['x-client-secret']).toBe(secrets[0]);
    // The service closed it: it takes nothing any more.
    await expect
      .poll(
        async () => (await h.service.request('GET', `/api/v1/checkout/sessions/${id}`)).body.session.status,
      )
      .toBe('closed');
    // The next pick is a new attempt of the new amount.
    await pick(page).click();
    await page.getByText('You send 3.5 BUSD.').waitFor();
    await page.close();
  });

  it('withdraws the payment request once a transfer of another amount arrived, and says what happens next', async () => {
    const product = await h.createProduct();
    const expected = await h.expectPayment(product.id, '7.00');
    const { page } = await h.openPage(0, `/checkout/${product.slug}?expected_payment=${expected.id}`);
    await h.fillShopper(page);
    await page.getByRole('button', { name: 'Pay from another device' }).click();
    await page.getByRole('img', { name: /^QR code of the payment request/ }).waitFor();
    const session = await sessionOf(expected.id);
    const exact = /uint256=(\d+)$/.exec(session.payment_uri)![1]!;
    // The price without the tail that makes it this session's: it pays nothing by itself.
    await h.chain.transfer(3, h.busd, h.merchant.address as Address, 7n * 10n ** 18n);
    const asked = formatUnits(BigInt(exact), 18).replace('.', '\\.');
    await page
      .getByText(new RegExp(`^We received 7\\.00 BUSD, not ${asked} BUSD\\.$`))
      .waitFor({ timeout: 30_000 });
    await page
      .getByText('Do not send it again: the merchant will confirm your order or refund you.')
      .waitFor();
    // Nothing is left to pay it again with: no QR code, request, link, wallet, nor time limit.
    expect(await page.getByRole('img', { name: /^QR code/ }).count()).toBe(0);
    expect(await page.getByRole('textbox', { name: 'Payment request' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Copy payment request' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Open in a wallet app' }).count()).toBe(0);
    expect(await pick(page).count()).toBe(0);
    expect(await h.elementText(page)).not.toContain('Time left to pay');
    await h.expectAccessible(page, 'transfer of another amount: request withdrawn');
    await page.screenshot({ path: `${artifacts}payment-request-other-amount.png` });

    // Opened again, the page says the same instead of asking again.
    await page.reload();
    await page.getByText('Do not send it again').waitFor();
    expect(await page.getByRole('img', { name: /^QR code/ }).count()).toBe(0);
    expect(await pick(page).count()).toBe(0);
    await page.close();
  });

  it('shows a payment link paid elsewhere as paid when Back restores the page from the back-forward cache, and on reload', async () => {
    const elsewhere = h.site.page(
      '/elsewhere',
      '<!doctype html><html lang="en"><head><title>Elsewhere</title></head><body><main><h1>Elsewhere</h1></main></body></html>',
    );
    const product = await h.createProduct({ success_url: elsewhere });
    const expected = await h.expectPayment(product.id, '4.75');
    const browser = await launchBrowser({ backForwardCache: true });
    try {
      const page = await browser.context.newPage();
      await installTestWallet(page, {
        chainId: 97,
        privateKey: (await h.freshShopper('20')) as Hex,
        rpcUrl: h.chain.chain.rpcUrl,
      });
      await page.addInitScript(() => {
        const w = window as unknown as { __shows: boolean[]; __outcomes: number };
        w.__shows = [];
        w.__outcomes = 0;
        window.addEventListener('pageshow', (event) => w.__shows.push(event.persisted));
        for (const type of ['checkout-success', 'checkout-failure'])
          document.addEventListener(type, () => w.__outcomes++);
      });
      const url = `${h.service.url}/checkout/${product.slug}?expected_payment=${expected.id}`;
      await page.goto(url);
      await pick(page).waitFor();
      // The shopper leaves the payable page, and the link is paid meanwhile (another tab, a phone).
      await page.goto(elsewhere);
      const payer = h.chain.deployment.shoppers[2]!.address;
      const opened = await h.service.request('POST', `/api/v1/checkout/${product.slug}/sessions`, {
        json: {
          email: 'shopper@example.com',
          custom_fields: { full_name: 'Ada Lovelace' },
          token_address: h.busd,
          expected_payment_id: expected.id,
          sender_address: payer,
        },
      });
      expect(opened.status, opened.text).toBe(200);
      const { id, expected_token_amount: amount } = opened.body.session as {
        id: string;
        expected_token_amount: string;
      };
      const tx = await h.chain.transfer(2, h.busd, h.merchant.address as Address, parseUnits(amount, 18));
      await h.service.request('POST', `/api/v1/checkout/sessions/${id}/transactions`, {
        json: { tx_hash: tx },
      });
      await expect
        .poll(async () => (await sessionOf(expected.id)).status, { timeout: 30_000 })
        .toBe('resolved');

      await page.goBack({ waitUntil: 'commit' });
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { __shows: boolean[] }).__shows))
        .toEqual([false, true]);
      // Restored as it was left (payable), then loaded again: paid, and told to no one again.
      await page.getByText('Payment received. Thank you!').waitFor();
      expect(await pick(page).count()).toBe(0);
      expect(await payNow(page).count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { __outcomes: number }).__outcomes)).toBe(0);
      expect(page.url()).toBe(url);
      await h.expectAccessible(page, 'back to a page paid elsewhere');

      await page.reload();
      await page.getByText('Payment received. Thank you!').waitFor();
      expect(await pick(page).count()).toBe(0);
    } finally {
      await browser.close();
    }
  });
});
