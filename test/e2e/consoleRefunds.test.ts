/// <reference lib="dom" />
/**
 * A refund from the console: the merchant signs in with the receiving wallet, requests a refund from the
 * payment's page to the customer's address, and pays it on the refunds page with the element's own refund
 * payment (`<refund-pay>`, the hosted pay page's flow) until the chain confirms it.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createApiKey } from '@checkout/db';
import type { Page } from 'playwright-core';
import { type Hex, parseUnits } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { waitForSession } from '../support/waitFor.ts';
import { axeViolations, browserUnavailable } from './support/browser.ts';
import { artifacts, type CheckoutHarness, startCheckoutHarness } from './support/checkoutHarness.ts';
import { consoleEnv, signIn } from './support/console.ts';
import { installTestWallet } from './support/testWallet.ts';

const axeSource = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');
/** The dev shopper who pays the order and is refunded. */
const customerIndex = 4;

async function expectAccessible(page: Page): Promise<void> {
  await page.evaluate(axeSource);
  expect(await axeViolations(page)).toEqual([]);
}

describe.skipIf(databaseUnavailable() || browserUnavailable())('refunds in the console', () => {
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
    await h.setNativeBalance(merchantAddress, 1n);
    const res = await h.service.request('POST', '/api/v1/products', {
      headers,
      json: {
        product: {
          name: 'Espresso beans',
          email: 'merchant@example.com',
          active: true,
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

  /** A resolved payment of 12 dollars the customer paid. */
  async function paidOrder(): Promise<string> {
    const expected = await h.service.request('POST', `/api/v1/products/${product.id}/expected_payments`, {
      headers,
      json: { dollar_amount: '12', customer_email: 'customer@example.com' },
    });
    const opened = await h.service.request('POST', `/api/v1/checkout/${product.slug}/sessions`, {
      json: {
        email: 'customer@example.com',
        token_address: h.busd,
        expected_payment_id: expected.body.expected_payment.id,
        sender_address: h.chain.deployment.shoppers[customerIndex]!.address,
      },
    });
    expect(opened.status, opened.text).toBe(200);
    const session = opened.body.session as { id: string; expected_token_amount: string };
    const tx = await h.chain.transfer(
      customerIndex,
      h.busd,
      merchantAddress,
      parseUnits(session.expected_token_amount, 18),
    );
    await h.service.request('POST', `/api/v1/checkout/sessions/${session.id}/transactions`, {
      json: { tx_hash: tx },
    });
    const resolved = await waitForSession(h.service, session.id, ['resolved']);
    return resolved.resolved_payment_id as string;
  }

  it('requests a refund from the payment and pays it from the receiving wallet until confirmed', async () => {
    const paymentId = await paidOrder();
    const customer = h.chain.deployment.shoppers[customerIndex]!.address;
    const before = await h.busdBalance(customer);
    const page = await h.browser.context.newPage();
    try {
      const wallet = await installTestWallet(page, {
        privateKey: merchantKey,
        rpcUrl: h.chain.chain.rpcUrl,
        chainId: 97,
      });
      await page.goto(`${h.service.url}/console/payment/${paymentId}`);
      await signIn(page, merchantAddress);
      await page.getByRole('heading', { name: 'Payment 12 BUSD' }).waitFor();

      await page.getByLabel('Reason').fill('The beans are out of stock');
      await page.getByLabel('Refund address (empty: the customer gives one)').fill(customer);
      await page.getByRole('button', { name: 'Request', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Refund requested.' }).waitFor();
      await expectAccessible(page);

      await page.getByRole('link', { name: 'Refunds', exact: true }).first().click();
      const row = page.locator('console-refunds tbody tr').filter({ hasText: 'The beans are out of stock' });
      await row.getByText('Ready to pay').waitFor();
      await expectAccessible(page);
      await row.getByRole('button', { name: 'Pay' }).click();
      await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
      await page.getByRole('button', { name: 'Send the refund' }).click();
      await page.getByText('The refund is confirmed.').waitFor({ timeout: 45_000 });
      await expectAccessible(page);
      await page.screenshot({ path: `${artifacts}console-refund-paid.png`, fullPage: true });
      expect(wallet.sent).toHaveLength(1);
      expect(await h.busdBalance(customer)).toBe(before + parseUnits('12', 18));

      await page.getByRole('button', { name: 'Close' }).click();
      await row.getByText('Confirmed').waitFor();
    } finally {
      await page.close();
    }
  });
});
