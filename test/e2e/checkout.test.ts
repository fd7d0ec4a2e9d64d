/// <reference lib="dom" />
/**
 * The built `<crypto-checkout>` on the hosted page, in real Chromium, against the real service, a local
 * chain and a test wallet: each flow ends with the merchant's webhook (or the expiry) and passes axe.
 */

import { quoteExactOutput, withSlippage } from '@checkout/chain';
import { uniswapV2RouterAbi } from '@checkout/core/uniswapV2Router';
import type { Page } from 'playwright-core';
import type { Address } from 'viem';
import { decodeFunctionData, erc20Abi, formatUnits, type Hex, parseUnits, toFunctionSelector } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { randomAddress } from '../support/service.ts';
import { browserUnavailable } from './support/browser.ts';
import { artifacts, type CheckoutHarness, startCheckoutHarness } from './support/checkoutHarness.ts';

describe.skipIf(databaseUnavailable() || browserUnavailable())('checkout element in Chromium', () => {
  let h: CheckoutHarness;
  const timings: Record<string, number> = {};

  beforeAll(async () => {
    h = await startCheckoutHarness();
  });
  afterAll(async () => {
    console.info('e2e timings (ms):', timings);
    await h?.stop();
  });

  const createProduct = (overrides: Record<string, unknown> = {}) => h.createProduct(overrides);
  const expectPayment = (productId: string, dollarAmount: string) => h.expectPayment(productId, dollarAmount);
  const openPage = (index: number, path: string) => h.openPage(index, path);
  const expectAccessible = (page: Page, state: string) => h.expectAccessible(page, state);
  const outcome = (page: Page) => h.outcome(page);
  const fillShopper = (page: Page, fields?: Record<string, string>) => h.fillShopper(page, fields);
  const expectWebhookFor = (paymentId: string) => h.expectWebhookFor(paymentId);
  /** The control focused in the element's shadow root: its text, else its id; null when focus is elsewhere. */
  const focused = (page: Page) =>
    page.evaluate(() => {
      const active = document.querySelector('crypto-checkout')?.shadowRoot?.activeElement;
      return active ? active.textContent?.trim() || active.id : null;
    });
  const countRows = async (table: 'expected_payments' | 'checkout_sessions', productId: string) =>
    (
      await h.service.deps.db.kysely
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('product_id', '=', productId)
        .executeTakeFirstOrThrow()
    ).n;

  it('pays an expected payment directly with an injected wallet', async () => {
    const started = Date.now();
    const product = await createProduct();
    const expected = await expectPayment(product.id, '25.00');
    const { page, wallet } = await openPage(0, `/checkout/${product.slug}?expected_payment=${expected.id}`);
    timings.firstRender = await page.evaluate(
      () => (window as unknown as { __firstRender: number }).__firstRender,
    );
    timings.viewRender = await page.evaluate(
      () => (window as unknown as { __viewRender: number }).__viewRender,
    );

    await page.getByText('$25.00').first().waitFor();
    await page.getByText('Includes 20 % tax: $4.17').waitFor();
    await page.getByText('25.00 BUSD').first().waitFor();
    await expectAccessible(page, 'form');

    await fillShopper(page);
    await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
    await page.getByRole('button', { name: 'Pay now' }).waitFor();
    await page.getByText('You send 25 BUSD.').waitFor();
    await page.getByRole('timer').waitFor();
    await expectAccessible(page, 'review');
    await page.screenshot({ path: `${artifacts}direct-review.png` });

    await page.getByRole('button', { name: 'Pay now' }).click();
    const result = await outcome(page);
    expect(result.type, JSON.stringify(result.detail)).toBe('checkout-success');
    await page.getByText('Payment received. Thank you!').waitFor();
    await expectAccessible(page, 'paid');
    await page.screenshot({ path: `${artifacts}direct-paid.png` });

    expect(wallet.calls.filter((m) => m === 'eth_sendTransaction')).toHaveLength(1);
    const hook = await expectWebhookFor(result.detail.resolvedPaymentId!);
    expect(hook.payment.tx_id).toBe(result.detail.txHash);
    expect(hook.payment.swapped).toBe(false);
    timings.direct = Date.now() - started;
    await page.close();
  });

  it('swaps another stablecoin when the shopper holds none of the product token', async () => {
    const started = Date.now();
    const shopper = h.chain.deployment.shoppers[1]!.address as Address;
    const balance = await h.chain.publicClient.readContract({
      address: h.busd,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [shopper],
    });
    await h.chain.transfer(1, h.busd, randomAddress() as Address, balance);
    const product = await createProduct({ custom_fields: [] });
    const expected = await expectPayment(product.id, '12.34');
    const { page, wallet } = await openPage(1, `/checkout/${product.slug}?expected_payment=${expected.id}`);
    await page.getByLabel('E-mail').fill('shopper@example.com');
    await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
    await page
      .getByText(/You spend at most .* \(0\.5 % slippage\); the merchant receives exactly 12\.34 BUSD\./)
      .waitFor();
    await page.getByText('Your wallet asks twice').waitFor();
    await expectAccessible(page, 'swap review');
    await page.getByRole('button', { name: 'Pay now' }).click();
    const result = await outcome(page);
    expect(result.type, JSON.stringify(result.detail)).toBe('checkout-success');
    await page.getByText('Payment received. Thank you!').waitFor();
    await page.screenshot({ path: `${artifacts}swap-paid.png` });
    expect(wallet.calls.filter((m) => m === 'eth_sendTransaction')).toHaveLength(2);
    const hook = await expectWebhookFor(result.detail.resolvedPaymentId!);
    expect(hook.payment.swapped).toBe(true);
    timings.swap = Date.now() - started;
    await page.close();
  });

  it('shows a DAI swap with at most 6 decimals, rounded up, while the wallet is asked for the exact bound', async () => {
    const key = await h.freshShopper('1');
    const { privateKeyToAddress } = await import('viem/accounts');
    const dai = h.chain.deployment.tokens.DAI;
    await h.chain.transfer(
      0,
      dai.address as Address,
      privateKeyToAddress(key),
      50n * 10n ** BigInt(dai.decimals),
    );
    const product = await createProduct({ custom_fields: [], swappable: true });
    const expected = await expectPayment(product.id, '12.57');
    const { page, wallet } = await h.openPage(
      key,
      `/checkout/${product.slug}?expected_payment=${expected.id}`,
    );
    await page.getByLabel('E-mail').fill('shopper@example.com');
    await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
    const { amountIn } = await quoteExactOutput({
      client: h.chain.publicClient,
      router: h.chain.deployment.router,
      path: [dai.address as Address, h.busd],
      amountOut: parseUnits('12.57', 18),
    });
    const bound = withSlippage(amountIn, 50);
    // The bound in 18 decimals, shown with 6 and rounded up: never less than what may leave the wallet.
    const step = 10n ** 12n;
    const shown = formatUnits(((bound + step - 1n) / step) * step, 18);
    expect(bound % step).not.toBe(0n);
    expect(shown.split('.')[1]!.length).toBeLessThanOrEqual(6);
    const daiOption = page.getByRole('radio', {
      name: new RegExp(`DAI.*Swap: at most ${shown.replace('.', '\\.')} DAI`),
    });
    await daiOption.waitFor();
    await page.getByRole('radio', { name: /BUSD.*Not enough.*Balance: 1 BUSD/ }).waitFor();
    await page.getByText(`You spend at most ${shown} DAI (0.5 % slippage)`).waitFor();
    expect(await h.elementText(page)).not.toMatch(/\d\.\d{7,}/);
    await expectAccessible(page, 'swap quote, 6 decimals');
    await page.screenshot({ path: `${artifacts}swap-six-decimals.png` });
    await page.getByRole('button', { name: 'Pay now' }).click();
    const result = await outcome(page);
    expect(result.type, JSON.stringify(result.detail)).toBe('checkout-success');
    // The approval signed is the exact bound in base units, not the rounded figure on screen.
    const sent = wallet.requests
      .filter((r) => r.method === 'eth_sendTransaction')
      .map((r) => (r.params[0] as { data: Hex }).data);
    const approvals = sent
      .filter((data) => data.startsWith(toFunctionSelector('approve(address,uint256)')))
      .map((data) => decodeFunctionData({ abi: erc20Abi, data }));
    expect(approvals.map((call) => call.args[1])).toEqual([bound]);
    // The approval carries nothing after its arguments; the swap buys exactly the session's amount, and
    // its reference follows the router call's arguments.
    expect(sent[0]).toHaveLength(2 + 8 + 128);
    const { reference, expected_token_amount: exact } = (
      await h.service.request('GET', `/api/v1/checkout/sessions/${result.detail.sessionId}`)
    ).body.session as { reference: string; expected_token_amount: string };
    const swap = sent.find((data) =>
      data.startsWith(
        toFunctionSelector('swapTokensForExactTokens(uint256,uint256,address[],address,uint256)'),
      ),
    )!;
    expect(swap.endsWith(reference.slice(2))).toBe(true);
    const { args } = decodeFunctionData({ abi: uniswapV2RouterAbi, data: swap });
    expect(args[0]).toBe(parseUnits(exact, 18));
    expect(args[1]).toBe(bound);
    await page.close();
  });

  it('takes an open amount, validating it first', async () => {
    const started = Date.now();
    const product = await createProduct({ open_amount: true, tax_rate: 0, custom_fields: [] });
    const { page, wallet } = await openPage(2, `/checkout/${product.slug}`);
    await page.getByLabel('E-mail').fill('shopper@example.com');
    const amount = page.getByLabel('Amount (USD)');
    const pay = page.getByRole('button', { name: 'Pay with Test Wallet' });
    await amount.fill('0');
    await pay.click();
    await page.getByText('The amount must be greater than 0.').waitFor();
    await amount.fill('1.234');
    await pay.click();
    await page.getByText('Use a number with at most 2 decimals').waitFor();
    await expectAccessible(page, 'amount invalid');
    // A negative amount is told it must be above 0, not that its decimals are wrong.
    await amount.fill('-5');
    await pay.click();
    await page.getByText('The amount must be greater than 0.').waitFor();
    expect(await h.elementText(page)).not.toContain('at most 2 decimals');
    expect(wallet.calls).toEqual([]);
    await amount.fill('7.5');
    await pay.click();
    await page.getByText('You send 7.5 BUSD.').waitFor();
    await page.getByRole('button', { name: 'Pay now' }).click();
    const result = await outcome(page);
    expect(result.type, JSON.stringify(result.detail)).toBe('checkout-success');
    await page.screenshot({ path: `${artifacts}open-amount-paid.png` });
    await expectWebhookFor(result.detail.resolvedPaymentId!);
    timings.openAmount = Date.now() - started;
    await page.close();
  });

  it('keeps one attempt of an open amount as one session, clears a stale error, keeps focus on the way on', async () => {
    const product = await createProduct({ open_amount: true, tax_rate: 0, custom_fields: [] });
    const { page, wallet } = await h.openPage(await h.freshShopper('10'), `/checkout/${product.slug}`);
    await h.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: h.service.url,
    });
    await page.getByLabel('E-mail').fill('shopper@example.com');
    const amount = page.getByLabel('Amount (USD)');
    const pick = page.getByRole('button', { name: 'Pay with Test Wallet' });
    await amount.fill('50000');
    await pick.click();
    await page.getByText('Your wallet does not hold enough to pay 50,000 BUSD.').waitFor();
    expect(await focused(page)).toBe('Try again');
    // The focus ring (3 px, 2 px away) of "Try again" stays clear of the message above it.
    const gap = await page.evaluate(() => {
      const error = document.querySelector('crypto-checkout')!.shadowRoot!.querySelector('[part="error"]')!;
      return (
        error.querySelector('button')!.getBoundingClientRect().top -
        error.querySelector('p')!.getBoundingClientRect().bottom
      );
    });
    expect(gap).toBeGreaterThanOrEqual(5);
    await expectAccessible(page, 'wallet error');
    await page.screenshot({ path: `${artifacts}after-wallet-error-focus.png` });

    await amount.fill('5');
    await page.getByText('$5.00').waitFor();
    expect(await h.elementText(page)).not.toContain('does not hold enough');
    await page.screenshot({ path: `${artifacts}after-stale-error.png` });

    await pick.click();
    await page.getByText('You send 5 BUSD.').waitFor();
    await page.getByRole('button', { name: 'Use another wallet' }).click();
    await pick.waitFor();
    expect(await focused(page)).toBe('Pay with Test Wallet');
    await page.screenshot({ path: `${artifacts}after-open-amount-another-wallet.png` });
    await pick.click();
    await page.getByText('You send 5 BUSD.').waitFor();
    expect(await countRows('expected_payments', product.id)).toBe(1);
    expect(await countRows('checkout_sessions', product.id)).toBe(1);

    await page.getByRole('button', { name: 'Pay now' }).click();
    const result = await h.expectPaidOnce(page, wallet);
    await page.getByText('Payment received. Thank you!').waitFor();
    // After the payment, focus is on the transaction's copy button; the local chain has no explorer.
    await expect.poll(() => focused(page)).toBe('Copy');
    expect(await page.getByRole('link', { name: /View on/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Copy transaction hash' }).click();
    await page.getByText('Transaction hash copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(result.detail.txHash);
    await expectAccessible(page, 'paid, hash copied');
    await page.screenshot({ path: `${artifacts}after-paid-copy.png` });
    expect(await countRows('expected_payments', product.id)).toBe(1);
    await page.close();
  });

  it("lets the shopper choose which of the wallet's stablecoins pays", async () => {
    const key = await h.freshShopper('100');
    const usdc = h.chain.deployment.tokens.USDC;
    const { privateKeyToAddress } = await import('viem/accounts');
    await h.chain.transfer(
      0,
      usdc.address as Address,
      privateKeyToAddress(key),
      50n * 10n ** BigInt(usdc.decimals),
    );
    const product = await createProduct({ custom_fields: [] });
    const expected = await expectPayment(product.id, '4.00');
    const { page, wallet } = await h.openPage(
      key,
      `/checkout/${product.slug}?expected_payment=${expected.id}`,
    );
    await page.getByLabel('E-mail').fill('shopper@example.com');
    await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
    const choice = page.getByRole('group', { name: 'Token to pay with' });
    await choice.waitFor();
    const busd = choice.getByRole('radio', { name: /BUSD.*Direct transfer.*Balance: 100 BUSD/ });
    const usdcOption = choice.getByRole('radio', { name: /USDC.*Swap: at most .* USDC.*Balance: 50 USDC/ });
    expect(await busd.isChecked()).toBe(true);
    await page.getByText('You send 4 BUSD.').waitFor();
    await expectAccessible(page, 'token choice');
    await page.screenshot({ path: `${artifacts}after-token-choice.png` });
    await usdcOption.check();
    await page
      .getByText(/You spend at most .* USDC \(0\.5 % slippage\); the merchant receives exactly 4 BUSD\./)
      .waitFor();
    await page.getByRole('button', { name: 'Pay now' }).click();
    const result = await h.outcome(page);
    expect(result.type, JSON.stringify(result.detail)).toBe('checkout-success');
    expect(wallet.calls.filter((m) => m === 'eth_sendTransaction')).toHaveLength(2);
    const hook = await expectWebhookFor(result.detail.resolvedPaymentId!);
    expect(hook.payment.swapped).toBe(true);
    expect(await h.busdBalance(privateKeyToAddress(key))).toBe(100n * 10n ** 18n);
    await page.close();
  });

  it('offers to start an open amount again once its time ran out', async () => {
    const product = await createProduct({ open_amount: true, tax_rate: 0, custom_fields: [] });
    const { page, outcomes } = await h.openPage(await h.freshShopper('10'), `/checkout/${product.slug}`, {
      cancelOutcome: false,
    });
    // The first session the page opens runs out within seconds: shortened where the service keeps it, so
    // the session's events (which the page follows) carry the new time limit.
    let shortened = false;
    await page.route('**/api/v1/checkout/*/sessions', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { session?: { id: string } };
      if (!shortened && body.session) {
        shortened = true;
        await h.service.deps.db.kysely
          .updateTable('checkout_sessions')
          .set({ expires_at: new Date(Date.now() + 4_000) })
          .where('id', '=', body.session.id)
          .execute();
      }
      await route.fulfill({ response, json: body });
    });
    await page.getByLabel('E-mail').fill('shopper@example.com');
    await page.getByLabel('Amount (USD)').fill('2');
    await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
    await page.getByRole('button', { name: 'Start again' }).waitFor({ timeout: 15_000 });
    expect(outcomes).toMatchObject([{ type: 'checkout-failure', detail: { reason: 'expired' } }]);
    expect(page.url()).toContain(`/checkout/${product.slug}`);
    expect(await focused(page)).toBe('Start again');
    expect(await h.elementText(page)).toContain('6. Expired');
    await expectAccessible(page, 'expired, start again');
    await page.screenshot({ path: `${artifacts}after-expired-start-again.png` });
    await page.getByRole('button', { name: 'Start again' }).click();
    expect(await page.getByLabel('Amount (USD)').inputValue()).toBe('2');
    await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
    await page.getByText('You send 2 BUSD.').waitFor();
    await page.getByRole('timer').getByText('Time left to pay: 30:00').waitFor();
    expect(await countRows('expected_payments', product.id)).toBe(2);
    await page.close();
  });

  it('requires every custom field before asking the wallet', async () => {
    const started = Date.now();
    const product = await createProduct({ custom_fields: ['full_name', 'company'] });
    const expected = await expectPayment(product.id, '3.00');
    const { page, wallet } = await openPage(3, `/checkout/${product.slug}?expected_payment=${expected.id}`);
    await page.getByLabel('E-mail').fill('shopper@example.com');
    await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
    await expect.poll(() => page.getByText('This field is required.').count()).toBe(2);
    expect(await page.getByLabel('Full name').evaluate((el) => el.matches(':focus'))).toBe(true);
    await expectAccessible(page, 'fields required');
    await page.screenshot({ path: `${artifacts}fields-required.png` });
    expect(wallet.calls).toEqual([]);
    await page.getByLabel('Full name').fill('Ada Lovelace');
    await page.getByLabel('Company').fill('Analytical Engines');
    await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
    await page.getByRole('button', { name: 'Pay now' }).click();
    const result = await outcome(page);
    expect(result.type, JSON.stringify(result.detail)).toBe('checkout-success');
    await expectWebhookFor(result.detail.resolvedPaymentId!);
    timings.customFields = Date.now() - started;
    await page.close();
  });

  it('says the checkout expired when the timer reaches zero before paying', async () => {
    const started = Date.now();
    const product = await createProduct({ expires_in_minutes: 30 });
    const expected = await expectPayment(product.id, '5.00');
    const opened = await h.service.request('POST', `/api/v1/checkout/${product.slug}/sessions`, {
      json: {
        expected_payment_id: expected.id,
        email: 'shopper@example.com',
        custom_fields: { full_name: 'Ada Lovelace' },
        // Not a paying shopper: the session's chain scan would otherwise claim a later flow's transfer.
        sender_address: randomAddress(),
        token_address: h.busd,
      },
    });
    expect(opened.status, opened.text).toBe(200);
    await h.service.deps.db.kysely
      .updateTable('checkout_sessions')
      .set({ expires_at: new Date(Date.now() + 6_000) })
      .where('id', '=', opened.body.session.id)
      .execute();
    const { page, wallet } = await openPage(4, `/checkout/${product.slug}?expected_payment=${expected.id}`);
    await page.getByRole('timer').waitFor();
    await expectAccessible(page, 'counting down');
    const result = await outcome(page);
    expect(result).toMatchObject({ type: 'checkout-failure', detail: { reason: 'expired' } });
    await page.getByText('This checkout has expired.').waitFor();
    // The merchant's expected payment cannot start again: the shopper is told what to do, and where to go.
    await page.getByText('Ask the merchant for a new payment link.').waitFor();
    expect(await page.getByRole('link', { name: 'Back to the shop' }).getAttribute('href')).toBe(
      'https://shop.example/sorry',
    );
    expect(await page.getByRole('button', { name: 'Pay now' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Pay with Test Wallet' }).count()).toBe(0);
    await expectAccessible(page, 'expired');
    await page.screenshot({ path: `${artifacts}after-expired.png` });
    expect(wallet.calls).toEqual([]);
    timings.expiry = Date.now() - started;
    await page.close();
  });

  it('recovers when the shopper rejects in the wallet, and pays once on retry', async () => {
    const started = Date.now();
    const product = await createProduct();
    const expected = await expectPayment(product.id, '9.99');
    const { page, wallet } = await openPage(4, `/checkout/${product.slug}?expected_payment=${expected.id}`);
    await fillShopper(page);
    await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
    wallet.rejectNext();
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.getByText('You declined the request in your wallet').waitFor();
    await expectAccessible(page, 'rejected');
    await page.screenshot({ path: `${artifacts}rejected.png` });
    await page.getByRole('button', { name: 'Try again' }).click();
    const result = await outcome(page).catch(async (error: unknown) => {
      await page.screenshot({ path: `${artifacts}rejected-retry-timeout.png` });
      const root = await page.evaluate(
        () => document.querySelector('crypto-checkout')?.shadowRoot?.textContent,
      );
      throw new Error(`no outcome after retry; element says: ${root?.replace(/\s+/g, ' ')}`, {
        cause: error,
      });
    });
    expect(result.type, JSON.stringify(result.detail)).toBe('checkout-success');
    expect(wallet.calls.filter((m) => m === 'eth_sendTransaction')).toHaveLength(2);
    await expectWebhookFor(result.detail.resolvedPaymentId!);
    timings.rejectRetry = Date.now() - started;
    await page.close();
  });

  it('serves the widget files and the demo shop outside production', async () => {
    const script = await fetch(`${h.service.url}/widget/crypto-checkout.iife.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect((await fetch(`${h.service.url}/widget/..%2fpackage.json`)).status).toBe(404);
    const demo = await fetch(`${h.service.url}/demo`);
    expect(demo.status).toBe(200);
    expect(await demo.text()).toMatch(/<crypto-checkout slug="[^"]+" expected-payment="[0-9a-f-]{36}">/);
  });
});
