/// <reference lib="dom" />
/**
 * Paying from another device: with no wallet in the browser the element offers a QR code of the payment
 * request (its encoder loaded only then) under a header that names the exact amount it asks and a progress
 * list without a wallet step, and a transfer of the exact amount from an account the page never saw
 * resolves the checkout, in the element and at the merchant's webhook.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { browserUnavailable } from './support/browser.ts';
import { artifacts, type CheckoutHarness, startCheckoutHarness } from './support/checkoutHarness.ts';

const manifestPath = fileURLToPath(new URL('../../widget/dist/widget-manifest.json', import.meta.url));

describe.skipIf(databaseUnavailable() || browserUnavailable())('paying from another device', () => {
  let h: CheckoutHarness;

  beforeAll(async () => {
    h = await startCheckoutHarness({
      env: { CHECKOUT_SCAN_INTERVAL_MS: '100', CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS: '1' },
    });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('shows a QR code when no wallet is found, and resolves a transfer sent from elsewhere', async () => {
    const { qr } = JSON.parse(readFileSync(manifestPath, 'utf8')) as { qr: string };
    const product = await h.createProduct();
    const expected = await h.expectPayment(product.id, '5.00');
    const { page, wallet } = await h.openPage(
      0,
      `/checkout/${product.slug}?expected_payment=${expected.id}`,
      {
        wallet: { announce: false },
      },
    );
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));

    await page.getByText('No wallet found in this browser.').waitFor();
    // Beside "$5.00", the token amount keeps its decimals too.
    expect(await page.locator('crypto-checkout .token').textContent()).toBe('5.00 BUSD');
    await h.expectAccessible(page, 'no wallet');
    await page.screenshot({ path: `${artifacts}payment-request-no-wallet.png` });
    expect(requested.filter((p) => p.endsWith(qr))).toEqual([]);

    await h.fillShopper(page);
    await page.getByRole('button', { name: 'Pay from another device' }).click();
    const code = page.getByRole('img', { name: /^QR code of the payment request ethereum:/ });
    await code.waitFor();
    // The encoder came in its own file, fetched only now.
    expect(requested.filter((p) => p.endsWith(qr))).toHaveLength(1);

    const { session } = (
      await h.service.request(
        'GET',
        `/api/v1/checkout/sessions/${
          (
            await h.service.deps.db.kysely
              .selectFrom('checkout_sessions')
              .select('id')
              .where('expected_payment_id', '=', expected.id)
              .executeTakeFirstOrThrow()
          ).id
        }`,
      )
    ).body as { session: { payment_uri: string; expected_token_amount: string } };
    const match =
      /^ethereum:(0x[0-9a-fA-F]{40})@97\/transfer\?address=(0x[0-9a-fA-F]{40})&uint256=(\d+)$/.exec(
        session.payment_uri,
      );
    expect(match).not.toBeNull();
    expect(match![1]).toBe(h.busd);
    expect(match![2]).toBe(h.merchant.address);
    const amount = BigInt(match![3]!);
    expect(amount > 5n * 10n ** 18n && amount < 5_001n * 10n ** 15n).toBe(true);

    expect(await code.getAttribute('aria-label')).toBe(
      `QR code of the payment request ${session.payment_uri}`,
    );
    expect(await code.locator('path').count()).toBe(1);
    expect(await page.getByRole('textbox', { name: 'Payment request' }).inputValue()).toBe(
      session.payment_uri,
    );
    expect(await page.getByRole('link', { name: 'Open in a wallet app' }).getAttribute('href')).toBe(
      session.payment_uri,
    );
    await page.getByText(`Send exactly ${session.expected_token_amount} BUSD on`).waitFor();
    // The header asks what the request asks, and the step is the phone's, not a wallet's in this browser.
    expect(await page.locator('crypto-checkout .token').textContent()).toBe(
      `${session.expected_token_amount} BUSD`,
    );
    expect(await page.locator('crypto-checkout [aria-current="step"]').textContent()).toBe('2. Scan and pay');
    expect(await page.locator('crypto-checkout [part="progress"]').textContent()).not.toContain('Wallet');
    await page.getByRole('button', { name: 'Copy payment request' }).waitFor();
    await h.expectAccessible(page, 'payment request');
    await page.screenshot({ path: `${artifacts}payment-request.png` });
    // Dark, at 320 px: still accessible, and nothing wider than the screen.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 320, height: 800 });
    await h.expectAccessible(page, 'payment request, dark 320');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await page.screenshot({ path: `${artifacts}payment-request-dark-320.png`, fullPage: true });

    // Another account, which the page never connected, pays the exact amount.
    const tx = await h.chain.transfer(3, h.busd, h.merchant.address as Address, amount);
    const result = await h.outcome(page);
    expect(result.type, JSON.stringify(result.detail)).toBe('checkout-success');
    expect(result.detail.txHash).toBe(tx.toLowerCase());
    await page.getByText('Payment received. Thank you!').waitFor();
    await h.expectAccessible(page, 'paid from another device');
    const hook = await h.expectWebhookFor(result.detail.resolvedPaymentId!);
    expect(hook.payment.tx_id).toBe(tx.toLowerCase());
    expect(wallet.sent).toEqual([]);
    await page.close();
  });
});
