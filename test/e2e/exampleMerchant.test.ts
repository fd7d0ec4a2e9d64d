/**
 * The example merchant server (examples/merchant-server) run as a merchant runs it, against the real service
 * and a local chain: its page renders the element in Chromium on its own origin, a shopper pays with a test
 * wallet, and the signed webhook it verifies marks its order paid; a webhook with a wrong signature is
 * refused.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { browserUnavailable } from './support/browser.ts';
import { type CheckoutHarness, startCheckoutHarness } from './support/checkoutHarness.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A port free on loopback right now. */
const freePort = () =>
  new Promise<number>((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => done(port));
    });
  });

describe.skipIf(databaseUnavailable() || browserUnavailable())('example merchant server', () => {
  let h: CheckoutHarness;
  let shop: ChildProcess | undefined;
  let shopUrl: string;
  const output: string[] = [];

  beforeAll(async () => {
    h = await startCheckoutHarness();
    const port = await freePort();
    shopUrl = `http://127.0.0.1:${port}`;
    const product = await h.createProduct({ custom_fields: [], webhook_url: `${shopUrl}/webhooks` });
    shop = spawn(process.execPath, [resolve(root, 'examples/merchant-server/server.ts')], {
      env: {
        ...process.env,
        CHECKOUT_URL: h.service.url,
        CHECKOUT_API_KEY: h.merchant.key,
        CHECKOUT_WALLET: h.merchant.address,
        PRODUCT_ID: product.id,
        PORT: String(port),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    shop.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    shop.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const deadline = Date.now() + 20_000;
    while (!output.join('').includes('shop listening')) {
      if (shop.exitCode !== null || Date.now() > deadline)
        throw new Error(`the shop did not start: ${output.join('')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  afterAll(async () => {
    shop?.kill('SIGTERM');
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
    expect((await orders())[orderId!]).toEqual({ status: 'paid', tx_id: result.detail.txHash });
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
