/// <reference lib="dom" />
/**
 * A refund of a resolved payment on the hosted refund pages: the customer opens the claim link, connects
 * the wallet that paid and claims the refund to it; the merchant opens the pay link and pays the exact
 * request from the receiving wallet with the element's wallet flow; the page follows the refund to sent
 * (the chain's watcher saw the transfer) and confirmed. Both pages pass axe in every state, load only
 * their own scripts (the wallet module once a wallet is picked), speak the customer's language, keep
 * saying that a wallet other than the receiving one cannot pay through the pay page's refreshes, and
 * answer an unknown link with a 404 page. The claim page names the shop and its deadline's time zone and
 * reads the wallet's address through the provider alone; the pay page speaks of a refund (who to, how
 * much, which order), each address once and never split into one character on a line; a canceled refund
 * shows the merchant's reason and contact. Payments need two confirmations here, so "sent" stays on
 * screen until the test mines the second block.
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
import { browserUnavailable } from './support/browser.ts';
import { artifacts, type CheckoutHarness, startCheckoutHarness } from './support/checkoutHarness.ts';

const manifestPath = fileURLToPath(new URL('../../widget/dist/widget-manifest.json', import.meta.url));

/** The dev shopper who pays the order and is refunded. */
const customerIndex = 4;

describe.skipIf(databaseUnavailable() || browserUnavailable())('refund pages', () => {
  let h: CheckoutHarness;
  /** A merchant whose receiving wallet's key the test holds: the refund is paid from it. */
  const merchantKey = `0x${randomBytes(32).toString('hex')}` as Hex;
  const merchantAddress = privateKeyToAddress(merchantKey);
  let headers: Record<string, string>;
  let product: { id: string; slug: string };

  beforeAll(async () => {
    h = await startCheckoutHarness({
      env: {
        CONFIRMATIONS_BINANCE_SMART_CHAIN_TESTNET: '2',
        CHECKOUT_SCAN_INTERVAL_MS: '100',
        CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS: '1',
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

  /** A resolved payment of `dollars` paid by the customer, its receipt in `locale`'s language. */
  const paidOrder = async (dollars: string, locale: string): Promise<string> => {
    const expected = await h.service.request('POST', `/api/v1/products/${product.id}/expected_payments`, {
      headers,
      json: { dollar_amount: dollars, customer_email: 'customer@example.com' },
    });
    expect(expected.status, expected.text).toBe(200);
    const opened = await h.service.request('POST', `/api/v1/checkout/${product.slug}/sessions`, {
      json: {
        email: 'customer@example.com',
        token_address: h.busd,
        expected_payment_id: expected.body.expected_payment.id,
        sender_address: h.chain.deployment.shoppers[customerIndex]!.address,
        locale,
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
    const submitted = await h.service.request(
      'POST',
      `/api/v1/checkout/sessions/${session.id}/transactions`,
      {
        json: { tx_hash: tx },
      },
    );
    expect(submitted.status, submitted.text).toBe(200);
    await h.chain.mine(1);
    const deadline = Date.now() + 45_000;
    for (;;) {
      const current = (await h.service.request('GET', `/api/v1/checkout/sessions/${session.id}`)).body
        .session;
      if (current.status === 'resolved') return current.resolved_payment_id as string;
      if (Date.now() > deadline) throw new Error(`session ${session.id} stayed ${current.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  /** The merchant's view of a refund. */
  const refundOf = async (id: string) => {
    const res = await h.service.request('GET', `/api/v1/refunds/${id}`, { headers });
    expect(res.status, res.text).toBe(200);
    return res.body.refund as {
      id: string;
      status: string;
      amount: string;
      claim_url: string | null;
      pay_url: string | null;
      refund_address: string | null;
      tx_hash: string | null;
    };
  };

  const pathOf = (url: string | null) => {
    expect(url).toMatch(/^https?:\/\/.+\/refunds\/(claim|pay)\/[A-Za-z0-9_-]{43}$/);
    return new URL(url!).pathname;
  };

  /** The refund element's shadow text, whitespace collapsed. */
  const pageText = (page: Page) =>
    page.evaluate(() =>
      (document.querySelector('refund-pay, refund-claim')?.shadowRoot?.textContent ?? '').replace(
        /\s+/g,
        ' ',
      ),
    );

  /** The addresses the refund page shows, in order (each a `code` of two halves). */
  const addressesOn = (page: Page) =>
    page.evaluate(() => {
      const root = document.querySelector('refund-pay, refund-claim')!.shadowRoot!;
      return Array.from(root.querySelectorAll('code'), (c) => c.textContent ?? '');
    });

  /** How many lines each half of each address takes on screen. */
  const addressLines = (page: Page) =>
    page.evaluate(() => {
      const root = document.querySelector('refund-pay, refund-claim')!.shadowRoot!;
      return Array.from(root.querySelectorAll('code.address span'), (span) => {
        const range = document.createRange();
        range.selectNodeContents(span);
        return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
      });
    });

  /** Script paths the page fetched (its own files under /widget/). */
  const scriptsOf = (page: Page) => {
    const paths: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/widget/')) paths.push(path);
    });
    return paths;
  };

  it('refunds a resolved payment in full: claimed with the customer’s wallet, paid from the receiving wallet', async () => {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      module: string;
      wallet: string;
      refunds: { claim: string; pay: string };
    };
    const paymentId = await paidOrder('12.00', 'en-US');
    const requested = await h.service.request('POST', `/api/v1/resolved_payments/${paymentId}/refunds`, {
      headers,
      json: { reason: 'The beans are out of stock' },
    });
    expect(requested.status, requested.text).toBe(201);
    const refundId = requested.body.refund.id as string;
    expect(requested.body.refund).toMatchObject({ status: 'awaiting_address', amount: '12' });
    const claimPath = pathOf(requested.body.refund.claim_url);
    const customer = h.chain.deployment.shoppers[customerIndex]!.address;
    const before = await h.busdBalance(customer);

    // The customer's page: what is refunded and why, a warning, then their wallet's address.
    const claim = await h.openPage(customerIndex, claimPath);
    const claimScripts = scriptsOf(claim.page);
    // The refund's language (English), with the region the browser asks for.
    expect(await claim.page.evaluate(() => document.documentElement.lang)).toMatch(/^en(-|$)/);
    await claim.page.getByRole('heading', { level: 1, name: 'Your refund' }).waitFor();
    await claim.page.getByRole('heading', { level: 2, name: /^A refund from Espresso beans/ }).waitFor();
    await claim.page.getByText('12 BUSD', { exact: true }).waitFor();
    // The deadline names its time zone (the browser's).
    expect(await pageText(claim.page)).toMatch(
      /Claim by\s*\w+ \d{1,2}, \d{4} at \d{1,2}:\d{2}\s?[AP]M (UTC|GMT[+-]?\d*|[A-Z]{2,5})\b/,
    );
    await claim.page.getByText('The beans are out of stock').waitFor();
    await claim.page.getByText('BNB Smart Chain Testnet').first().waitFor();
    await claim.page.getByText('Do not give an exchange deposit address').waitFor();
    await h.expectAccessible(claim.page, 'claim: awaiting address');
    await claim.page.screenshot({ path: `${artifacts}refund-claim.png`, fullPage: true });
    // Only the page's own script and what it imports: nothing of the checkout element, no wallet code yet.
    const firstLoad = await claim.page.evaluate(() =>
      performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname),
    );
    expect(firstLoad).toContain(`/widget/${manifest.refunds.claim}`);
    expect(firstLoad.filter((p) => /crypto-checkout|wallet-flow/.test(p))).toEqual([]);

    await claim.page.getByRole('button', { name: 'Use Test Wallet' }).click();
    await claim.page.getByText(`Your wallet's address ${customer} is filled in below.`).waitFor();
    // Read through the wallet's provider alone: no wallet module, nothing of the payment flow fetched.
    expect(claimScripts.filter((p) => /wallet|crypto-checkout/.test(p))).toEqual([]);
    expect(await claim.page.getByLabel('Your wallet address on BNB Smart Chain Testnet').inputValue()).toBe(
      customer,
    );
    // Connecting asked for the account only: no network switch, nothing to sign.
    expect(claim.wallet.calls).not.toContain('wallet_switchEthereumChain');
    expect(claim.wallet.calls).not.toContain('eth_sendTransaction');
    await h.expectAccessible(claim.page, 'claim: wallet connected');
    await claim.page.getByRole('button', { name: 'Send my refund to this address' }).click();
    await claim.page
      .getByText(`Your address is saved. The merchant will send 12 BUSD to ${customer}.`)
      .waitFor();
    await h.expectAccessible(claim.page, 'claim: ready to pay');
    await claim.page.screenshot({ path: `${artifacts}refund-claim-ready.png`, fullPage: true });

    const ready = await refundOf(refundId);
    expect(ready).toMatchObject({ status: 'ready_to_pay', refund_address: customer });
    const payPath = pathOf(ready.pay_url);

    // The merchant's page: the receiving wallet pays the exact request with the element's wallet flow.
    const pay = await h.openPage(merchantKey, payPath);
    await pay.page.getByRole('heading', { level: 1, name: 'Pay a refund' }).waitFor();
    // A refund in its own words: to whom, how much, for which order; each address shown once.
    await pay.page.getByRole('heading', { level: 2, name: /^Refund 12 BUSD to your customer/ }).waitFor();
    await pay.page.getByText('You are giving a customer of Espresso beans their money back.').waitFor();
    expect(await pageText(pay.page)).toContain(`${paymentId} · $12.00 · paid 12 BUSD on `);
    expect(await addressesOn(pay.page)).toEqual([customer, merchantAddress]);
    await h.expectAccessible(pay.page, 'pay: ready to pay');
    await pay.page.screenshot({ path: `${artifacts}refund-pay.png`, fullPage: true });
    const payLoad = await pay.page.evaluate(() =>
      performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname),
    );
    expect(payLoad).toContain(`/widget/${manifest.refunds.pay}`);
    expect(payLoad.filter((p) => /crypto-checkout|wallet-flow/.test(p))).toEqual([]);

    await pay.page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
    await pay.page.getByText('You send 12 BUSD to your customer’s address above.').waitFor();
    await h.expectAccessible(pay.page, 'pay: review');
    await pay.page.getByRole('button', { name: 'Send the refund' }).click();
    // The chain's watcher recognises the transfer: sent, with its transaction, until the second block.
    await pay.page.getByText('The refund is on the network. Waiting for its confirmations…').waitFor({
      timeout: 30_000,
    });
    expect(pay.wallet.sent).toHaveLength(1);
    const hash = pay.wallet.sent[0]!;
    await pay.page.getByText(`Transaction: ${hash}`).waitFor();
    await h.expectAccessible(pay.page, 'pay: sent');
    await pay.page.screenshot({ path: `${artifacts}refund-pay-sent.png`, fullPage: true });
    // The wallet was asked for exactly the refund's transfer, from the receiving wallet.
    const sentTx = pay.wallet.requests.find((r) => r.method === 'eth_sendTransaction')!.params[0] as {
      from: string;
      to: string;
      data: string;
    };
    const request = (await h.service.request('GET', `/api/v1/refund_payments/${payPath.split('/').pop()}`))
      .body.refund_payment.payment_request as { transaction: { from: string; to: string; data: string } };
    expect(sentTx.to.toLowerCase()).toBe(request.transaction.to.toLowerCase());
    expect(sentTx.data.toLowerCase()).toBe(request.transaction.data.toLowerCase());
    expect(sentTx.from.toLowerCase()).toBe(merchantAddress.toLowerCase());

    await h.chain.mine(1);
    await pay.page.getByText('The refund is confirmed.').waitFor({ timeout: 30_000 });
    await h.expectAccessible(pay.page, 'pay: confirmed');
    await pay.page.screenshot({ path: `${artifacts}refund-pay-confirmed.png`, fullPage: true });
    expect(pay.wallet.sent).toHaveLength(1);
    expect(await h.busdBalance(customer)).toBe(before + parseUnits('12', 18));
    expect(await refundOf(refundId)).toMatchObject({ status: 'confirmed', tx_hash: hash.toLowerCase() });

    // The customer's page followed it too.
    await claim.page.getByText(`Your refund of 12 BUSD arrived at ${customer}.`).waitFor({ timeout: 15_000 });
    await claim.page.getByText(`Transaction: ${hash}`).waitFor();
    await h.expectAccessible(claim.page, 'claim: confirmed');
    await claim.page.screenshot({ path: `${artifacts}refund-claim-confirmed.png`, fullPage: true });
    expect([...claim.errors, ...pay.errors]).toEqual([]);
    await claim.page.close();
    await pay.page.close();
  });

  it('speaks the customer’s language on the claim page, refuses a bad address, and shows the QR code to the merchant', async () => {
    const paymentId = await paidOrder('3.00', 'es-ES');
    const requested = await h.service.request('POST', `/api/v1/resolved_payments/${paymentId}/refunds`, {
      headers,
      json: { reason: 'Pedido duplicado' },
    });
    expect(requested.status, requested.text).toBe(201);
    const claimPath = pathOf(requested.body.refund.claim_url);

    const claim = await h.openPage(customerIndex, claimPath, {
      headers: { 'Accept-Language': 'es-MX,es;q=0.9,en;q=0.5' },
      before: async (page) => {
        await page.emulateMedia({ colorScheme: 'dark' });
        await page.setViewportSize({ width: 320, height: 900 });
      },
    });
    expect(await claim.page.evaluate(() => document.documentElement.lang)).toBe('es-MX');
    await claim.page.getByRole('heading', { level: 1, name: 'Tu reembolso' }).waitFor();
    await claim.page.getByText('No indiques una dirección de depósito de un exchange').waitFor();
    const field = claim.page.getByLabel('La dirección de tu billetera en BNB Smart Chain Testnet');
    await field.fill('0x1234');
    await claim.page.getByRole('button', { name: 'Enviar mi reembolso a esta dirección' }).click();
    await claim.page.getByText('Escribe una dirección: 0x seguido de 40 caracteres hexadecimales.').waitFor();
    // The service refuses the receiving address itself.
    await field.fill(merchantAddress);
    await claim.page.getByRole('button', { name: 'Enviar mi reembolso a esta dirección' }).click();
    await claim.page.getByText('Esta dirección no puede recibir el reembolso.').waitFor();
    await h.expectAccessible(claim.page, 'claim es, dark 320: address refused');
    expect(await claim.page.evaluate(() => document.documentElement.scrollWidth)).toBe(320);
    // The test badge sits above the title, on one line, as at every width.
    const badge = (await claim.page.locator('[part="header"] .badge').boundingBox())!;
    const heading = (await claim.page.locator('[part="header"] h2').boundingBox())!;
    expect(badge.y + badge.height).toBeLessThanOrEqual(heading.y);
    expect(badge.height).toBeLessThan(32);
    await claim.page.screenshot({ path: `${artifacts}refund-claim-es-dark-320.png`, fullPage: true });

    // A pasted address is taken as well.
    const pasted = h.chain.deployment.shoppers[customerIndex - 1]!.address;
    await field.fill(pasted);
    await claim.page.getByRole('button', { name: 'Enviar mi reembolso a esta dirección' }).click();
    await claim.page
      .getByText(`Tu dirección está guardada. El comercio enviará 3 BUSD a ${pasted}.`)
      .waitFor();
    await h.expectAccessible(claim.page, 'claim es: ready to pay');

    const refund = (
      await h.service.request('GET', `/api/v1/refunds/${requested.body.refund.id}`, { headers })
    ).body.refund as { pay_url: string; payment_request: { uri: string } };
    // Another wallet than the receiving one is refused, and the page's refreshes leave the refusal on screen.
    const wrong = await h.openPage(customerIndex, pathOf(refund.pay_url));
    const reads: number[] = [];
    wrong.page.on('response', (response) => {
      if (response.url().includes('/api/v1/refund_payments/')) reads.push(Date.now());
    });
    await wrong.page.evaluate(() => {
      (document.querySelector('refund-pay') as unknown as { pollInterval: number }).pollInterval = 200;
    });
    await wrong.page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
    const refusal = wrong.page.getByText(
      `This wallet is ${h.chain.deployment.shoppers[customerIndex]!.address}. The refund must come from ${merchantAddress}: connect that wallet.`,
    );
    await refusal.waitFor();
    const refused = Date.now();
    await expect
      .poll(() => reads.filter((at) => at > refused).length, { timeout: 10_000 })
      .toBeGreaterThan(1);
    await wrong.page.evaluate(() => new Promise(requestAnimationFrame));
    expect(await refusal.isVisible()).toBe(true);
    expect(wrong.wallet.sent).toEqual([]);
    await h.expectAccessible(wrong.page, 'pay: another wallet refused');
    await wrong.page.close();

    // A merchant without a wallet in this browser pays by scanning the request.
    const pay = await h.openPage(merchantKey, pathOf(refund.pay_url), { wallet: { announce: false } });
    await pay.page.getByText('No wallet found in this browser.').waitFor();
    await pay.page.getByRole('button', { name: 'Pay from another device' }).click();
    const code = pay.page.getByRole('img', { name: /^QR code of the payment request ethereum:/ });
    await code.waitFor();
    // The refund's own words next to its code, and the addresses still once each.
    await pay.page.getByText('Waiting for the refund’s transfer…').waitFor();
    expect(await pageText(pay.page)).not.toContain('identifies your payment');
    expect((await addressesOn(pay.page)).length).toBe(2);
    expect(await code.getAttribute('aria-label')).toBe(
      `QR code of the payment request ${refund.payment_request.uri}`,
    );
    expect(await pay.page.getByRole('textbox', { name: 'Payment request' }).inputValue()).toBe(
      refund.payment_request.uri,
    );
    await h.expectAccessible(pay.page, 'pay: payment request');
    await pay.page.screenshot({ path: `${artifacts}refund-pay-qr.png`, fullPage: true });
    await claim.page.close();
    await pay.page.close();
  });

  it('shows a canceled refund with the merchant’s reason and contact, on both pages, at 320 px', async () => {
    const paymentId = await paidOrder('2.00', 'pt-BR');
    const requested = await h.service.request('POST', `/api/v1/resolved_payments/${paymentId}/refunds`, {
      headers,
      json: {
        reason: 'Pedido em dobro',
        refund_address: h.chain.deployment.shoppers[customerIndex]!.address,
      },
    });
    expect(requested.status, requested.text).toBe(201);
    const refundId = requested.body.refund.id as string;
    const payPath = pathOf(requested.body.refund.pay_url);
    // The reason is checked like the refund's own: empty is refused, and nothing changes.
    const empty = await h.service.request('POST', `/api/v1/refunds/${refundId}/cancel`, {
      headers,
      json: { reason: '  ' },
    });
    expect(empty.status, empty.text).toBe(422);
    const canceled = await h.service.request('POST', `/api/v1/refunds/${refundId}/cancel`, {
      headers,
      json: { reason: 'Você preferiu ficar com o pedido' },
    });
    expect(canceled.status, canceled.text).toBe(200);
    expect(canceled.body.refund).toMatchObject({
      status: 'canceled',
      cancel_reason: 'Você preferiu ficar com o pedido',
    });

    const pay = await h.openPage(merchantKey, payPath, {
      before: (page) => page.setViewportSize({ width: 320, height: 900 }),
    });
    await pay.page.getByText('The merchant canceled this refund.').waitFor();
    await pay.page.getByText('The merchant gave this reason: “Você preferiu ficar com o pedido”').waitFor();
    await h.expectAccessible(pay.page, 'pay: canceled with a reason, 320 px');
    expect(await pay.page.evaluate(() => document.documentElement.scrollWidth)).toBe(320);
    // Each half of an address is one line: an address wraps once, never leaving one character alone.
    expect(await addressLines(pay.page)).toEqual([1, 1, 1, 1]);
    await pay.page.screenshot({ path: `${artifacts}refund-pay-canceled-320.png`, fullPage: true });
    await pay.page.close();

    // The claim page, in the customer's language: who canceled, why, and how to reach them.
    const other = await h.service.request('POST', `/api/v1/resolved_payments/${paymentId}/refunds`, {
      headers,
      json: { amount: '1', reason: 'Parte do pedido' },
    });
    expect(other.status, other.text).toBe(201);
    const claimPath = pathOf(other.body.refund.claim_url);
    const cancel = await h.service.request('POST', `/api/v1/refunds/${other.body.refund.id}/cancel`, {
      headers,
      json: { reason: 'Enviamos o produto de novo' },
    });
    expect(cancel.status, cancel.text).toBe(200);
    const claim = await h.openPage(customerIndex, claimPath, {
      headers: { 'Accept-Language': 'pt-BR' },
      before: (page) => page.setViewportSize({ width: 320, height: 900 }),
    });
    await claim.page.getByRole('heading', { level: 2, name: /^Um reembolso de Espresso beans/ }).waitFor();
    await claim.page.getByText('O lojista cancelou este reembolso.').waitFor();
    await claim.page.getByText('O lojista informou este motivo: “Enviamos o produto de novo”').waitFor();
    const contact = claim.page.getByRole('link', { name: 'merchant@example.com' });
    expect(await contact.getAttribute('href')).toBe('mailto:merchant@example.com');
    await h.expectAccessible(claim.page, 'claim pt: canceled with a reason, 320 px');
    expect(await claim.page.evaluate(() => document.documentElement.scrollWidth)).toBe(320);
    await claim.page.screenshot({ path: `${artifacts}refund-claim-canceled-pt-320.png`, fullPage: true });
    expect([...claim.errors, ...pay.errors]).toEqual([]);
    await claim.page.close();
  });

  it('answers an unknown refund link with a page saying so', async () => {
    for (const kind of ['claim', 'pay']) {
      const res = await h.service.request('GET', `/refunds/${kind}/${'x'.repeat(43)}`, {
        headers: { 'Accept-Language': 'pt-BR' },
      });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.text).toContain('<html lang="pt-BR">');
      expect(res.text).toContain('<h1>Reembolso não encontrado</h1>');
      expect(res.text).not.toContain('<script');
    }
    const page = await h.browser.context.newPage();
    await page.goto(`${h.service.url}/refunds/claim/unknown`);
    await page.getByRole('heading', { level: 1, name: 'Refund not found' }).waitFor();
    await h.expectAccessible(page, 'unknown refund link');
    await page.close();
  });
});
