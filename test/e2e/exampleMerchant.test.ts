/**
 * The example merchant server (examples/merchant-server) run as a merchant runs it, against the real service
 * and a local chain: its page renders the element in Chromium on its own origin, a shopper pays with a test
 * wallet, and the signed webhook it verifies marks its order paid; a webhook with a wrong signature is
 * refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { type ExampleShop, exampleShopPort, startExampleShop } from '../support/exampleShop.ts';
import { browserUnavailable } from './support/browser.ts';
import { type CheckoutHarness, startCheckoutHarness } from './support/checkoutHarness.ts';

describe.skipIf(databaseUnavailable() || browserUnavailable())('example merchant server', () => {
  let h: CheckoutHarness;
  let shop: ExampleShop | undefined;
  let shopUrl: string;

  beforeAll(async () => {
    h = await startCheckoutHarness();
    const { port, webhookUrl } = await exampleShopPort();
    const product = await h.createProduct({ custom_fields: [], webhook_url: webhookUrl });
    shop = await startExampleShop({
      checkoutUrl: h.service.url,
      key: h.merchant.key,
      wallet: h.merchant.address,
      productId: product.id,
      port,
    });
    shopUrl = shop.url;
  });
  afterAll(async () => {
    await shop?.stop();
    await h?.stop();
  });

  const orders = async () =>
    (await (await fetch(`${shopUrl}/orders`)).json()) as Record<string, { status: string; tx_id?: string }>;

  it('renders the element, and a payment on the local chain marks its order paid through the verified webhook', async () => {
    const { page, wallet } = await h.openPage(await h.freshShopper('20'), `${shopUrl}/`);
    await page.getByRole('heading', { name: 'Espresso beans, $12.50' }).waitFor();
    const [orderId] = Object.keys(await orders());
    expect(await orders()).toEqual({ [orderId!]: { status: 'awaiting_payment' } });
    await page.getByLabel('E-mail').fill('shopper@example.com');
    await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
    await page.getByText('You send 12.5 BUSD.').waitFor();
    await page.getByRole('button', { name: 'Pay now' }).click();
    const result = await h.outcome(page);
    expect(result.type, JSON.stringify(result.detail)).toBe('checkout-success');
    expect(wallet.sent).toEqual([result.detail.txHash]);

    const deadline = Date.now() + 30_000;
    while ((await orders())[orderId!]?.status !== 'paid') {
      if (Date.now() > deadline) throw new Error(`the order stayed ${JSON.stringify(await orders())}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await orders())[orderId!]).toMatchObject({ status: 'paid', tx_id: result.detail.txHash });
    await page.close();
  });

  it('refuses a webhook whose signature is wrong', async () => {
    const body = JSON.stringify({
      expected_payment_id: 'x',
      payment: { tx_success: true, tx_failure: false },
    });
    const refused = await fetch(`${shopUrl}/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-sig': `t=${Math.floor(Date.now() / 1000)}, s=${'0'.repeat(64)}`,
        'x-webhook-event': 'resolved_payment.created',
      },
      body,
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toBe('signature_mismatch');
    expect(Object.keys(await orders())).not.toContain('x');
  });
});
