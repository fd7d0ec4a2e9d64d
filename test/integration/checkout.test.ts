/**
 * The checkout engine end to end: real server and worker, real Temporal, a local EVM chain, an SMTP
 * inbox and an HTTP webhook receiver.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PaymentTimelineResponse, ResolvedPayment } from '@checkout/core';
import { type DevInbox, startDevInbox } from '@checkout/mail';
import {
  CheckoutStatus,
  checkoutStateQuery,
  checkoutWorkflowId,
  MerchantId,
  ProductId,
  webhookWorkflowId,
} from '@checkout/workflows';
import type { Address, Hash } from 'viem';
import { parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { waitForSession } from '../support/waitFor.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.ts';

describe.skipIf(databaseUnavailable())('checkout engine', () => {
  let chain: TestChain;
  let service: TestService;
  let inbox: DevInbox;
  let receiver: WebhookReceiver;
  let merchant: TestMerchant;
  let busd: Address;

  beforeAll(async () => {
    [chain, inbox, receiver] = await Promise.all([
      startTestChain(),
      startDevInbox({ dir: mkdtempSync(join(tmpdir(), 'checkout-inbox-')) }),
      startWebhookReceiver(),
    ]);
    busd = chain.deployment.tokens.BUSD.address;
    service = await startTestService({
      env: {
        RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl,
        SMTP_URL: inbox.smtpUrl,
        CHAIN_POLL_INTERVAL_MS: '100',
        CHECKOUT_GRACE_MINUTES: '1',
        CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS: '1',
        CHECKOUT_SCAN_INTERVAL_MS: '100',
      },
    });
    merchant = await service.createMerchant();
  });
  afterAll(async () => {
    await service?.stop();
    await Promise.all([chain?.stop(), inbox?.close(), receiver?.close()]);
  });

  const createProduct = async (overrides: Record<string, unknown> = {}) => {
    const res = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Espresso beans',
          email: 'merchant@example.com',
          active: true,
          send_webhook: true,
          webhook_url: receiver.url,
          send_email: true,
          email_body: 'Thank you for your order!',
          custom_fields: ['full_name'],
          tax_rate: 20,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd },
          ...overrides,
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.product as { id: string; slug: string };
  };

  const expectPayment = async (productId: string, dollarAmount: string) => {
    const res = await service.request('POST', `/api/v1/products/${productId}/expected_payments`, {
      headers: merchant.headers,
      json: {
        dollar_amount: dollarAmount,
        metadata: { order: 'A-1' },
        customer_email: 'shopper@example.com',
      },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.expected_payment as { id: string; checkout_url: string; status: string };
  };

  const openSession = async (slug: string, body: Record<string, unknown>) => {
    const res = await service.request('POST', `/api/v1/checkout/${slug}/sessions`, {
      json: { email: 'shopper@example.com', custom_fields: { full_name: 'Ada Lovelace' }, ...body },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.session as {
      id: string;
      status: string;
      expected_token_amount: string;
      reference: string;
      transaction: { to: string; data: string };
    };
  };

  const submit = (sessionId: string, txHash: Hash) =>
    service.request('POST', `/api/v1/checkout/sessions/${sessionId}/transactions`, {
      json: { tx_hash: txHash },
    });

  const resolvedPayments = async (productId: string) => {
    const res = await service.request('GET', `/api/v1/products/${productId}/resolved_payments`, {
      headers: merchant.headers,
    });
    expect(res.status).toBe(200);
    return res.body.resolved_payments as ResolvedPayment[];
  };

  const shopper = (index: number) => chain.deployment.shoppers[index]!.address;

  it('resolves an exact payment once, signs the webhook, and sends both e-mails', async () => {
    const product = await createProduct();
    const expected = await expectPayment(product.id, '25.00');
    expect(expected.checkout_url).toBe(
      `${service.deps.config.publicBaseUrl}/checkout/${product.slug}?expected_payment=${expected.id}`,
    );

    const view = await service.request(
      'GET',
      `/api/v1/checkout/${product.slug}?expected_payment=${expected.id}`,
    );
    expect(view.status).toBe(200);
    expect(view.body.checkout).toMatchObject({
      name: 'Espresso beans',
      is_test: true,
      chain_id: 97,
      receiving_address: merchant.address,
      custom_fields: ['full_name'],
      expected_payment: { id: expected.id, dollar_amount: '25.00', status: 'open' },
    });
    expect(JSON.stringify(view.body)).not.toMatch(/secret|webhook_url|email_body/);

    const session = await openSession(product.slug, {
      expected_payment_id: expected.id,
      sender_address: shopper(0),
      token_address: busd,
    });
    expect(session).toMatchObject({ status: 'awaiting_payment', expected_token_amount: '25' });

    const tx = await chain.transfer(0, busd, merchant.address as Address, parseUnits('25', 18));
    const submitted = await submit(session.id, tx);
    expect(submitted.status, submitted.text).toBe(200);
    // The block is already in when the hash arrives: the submission itself may find the payment final.
    expect(submitted.body.session).toMatchObject({ tx_hash: tx.toLowerCase() });
    expect(['confirming', 'resolved']).toContain(submitted.body.session.status);

    const done = await waitForSession(service, session.id, ['resolved', 'failed']);
    expect(done).toMatchObject({ status: 'resolved', late: false, confirmations: 1 });

    const [payment, ...others] = await resolvedPayments(product.id);
    expect(others).toEqual([]);
    expect(ResolvedPayment.parse(payment)).toEqual(payment);
    expect(payment).toMatchObject({
      is_test: true,
      id: done.resolved_payment_id,
      product_id: product.id,
      expected_payment_id: expected.id,
      slug: product.slug,
      dollar_amount: '25.00',
      metadata: { order: 'A-1' },
      user: { email: 'shopper@example.com', custom_fields: { full_name: 'Ada Lovelace' } },
      payment: {
        expected_token_amount: '25',
        received_token_amount: '25',
        amount_difference: '0.0',
        exception_status: null,
        receiving_address: merchant.address,
        sender_address: shopper(0),
        tx_id: tx.toLowerCase(),
        tx_success: true,
        tx_failure: false,
        swapped: false,
      },
    });
    expect(payment!.payment.expected_token).toEqual({
      symbol: 'BUSD',
      address: busd,
      name: 'BUSD Token',
      decimal_count: 18,
      blockchain: 'binance-smart-chain',
      network: 'testnet',
    });

    const [hook] = await receiver.waitFor(1);
    const secret = (await service.request('GET', '/api/v1/webhook_secret', { headers: merchant.headers }))
      .body.webhook_secret.secret;
    const sig = /^t=(\d+), s=([0-9a-f]{64})$/.exec(String(hook!.headers['x-sig']));
    expect(sig).not.toBeNull();
    expect(createHmac('sha256', secret).update(`${sig![1]}.${hook!.body}`).digest('hex')).toBe(sig![2]);
    expect(JSON.parse(hook!.body)).toEqual(payment);
    expect(hook!.headers['x-webhook-event']).toBe('resolved_payment.created');

    const customer = await inbox.waitFor((m) => m.to.includes('shopper@example.com'), { timeoutMs: 20_000 });
    expect(customer.text).toContain('Thank you for your order!');
    expect(customer.text).toContain(tx.toLowerCase());
    expect(customer.text).toContain('4.17'); // 20 % tax included in 25.00
    const notice = await inbox.waitFor((m) => m.to.includes('merchant@example.com'), { timeoutMs: 20_000 });
    expect(notice.subject).toMatch(/TEST/);

    const ep = await service.request('GET', `/api/v1/expected_payments/${expected.id}`, {
      headers: merchant.headers,
    });
    expect(ep.body.expected_payment).toMatchObject({ status: 'paid', resolved_payment_id: payment!.id });

    // Ops find the workflow in the Temporal UI by merchant, product and status.
    const handle = service.deps.temporal!.client.workflow.getHandle(checkoutWorkflowId(expected.id));
    // A product without a timer never expires, not even for a moment while the hash arrives.
    expect(await handle.query(checkoutStateQuery)).toMatchObject({ status: 'resolved', expired: false });
    expect(await handle.result()).toMatchObject({ status: 'resolved', late: false });
    const described = await handle.describe();
    expect(described.typedSearchAttributes.get(MerchantId)).toBe(merchant.merchantId);
    expect(described.typedSearchAttributes.get(ProductId)).toBe(product.id);
    expect(described.typedSearchAttributes.get(CheckoutStatus)).toBe('resolved');
    expect(described.memo).toMatchObject({ slug: product.slug, dollar_amount: '25.00' });
    // A webhook is delivered once (counted once its delivery has ended), and its delivery workflow is found
    // by merchant and product too.
    const deliveryId = String(hook!.headers['x-webhook-id']);
    const delivery = service.deps.temporal!.client.workflow.getHandle(webhookWorkflowId(deliveryId));
    expect(await delivery.result()).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(receiver.received.filter((r) => r.body.includes(payment!.id))).toHaveLength(1);
    const deliveryDescribed = await delivery.describe();
    expect(deliveryDescribed.typedSearchAttributes.get(MerchantId)).toBe(merchant.merchantId);
    expect(deliveryDescribed.typedSearchAttributes.get(ProductId)).toBe(product.id);
    expect(deliveryDescribed.memo).toMatchObject({
      eventType: 'resolved_payment.created',
      urlHost: new URL(receiver.url).host,
    });

    // The payment's timeline, read from what the flow recorded (its workflow has ended: every effect is in).
    const timeline = await service.request('GET', `/api/v1/resolved_payments/${payment!.id}/timeline`, {
      headers: merchant.headers,
    });
    expect(timeline.status, timeline.text).toBe(200);
    const entries = PaymentTimelineResponse.parse(timeline.body).timeline;
    const at = (type: string) => entries.findIndex((e) => e.type === type);
    expect(at('session_opened')).toBe(0);
    expect(at('session_opened')).toBeLessThan(at('transfer_seen'));
    expect(at('transfer_seen')).toBeLessThan(at('resolved'));
    expect(at('resolved')).toBeLessThan(at('webhook_attempt'));
    expect(entries.find((e) => e.type === 'transfer_seen')).toMatchObject({
      chain_id: 97,
      tx_hash: tx.toLowerCase(),
    });
    expect(entries.find((e) => e.type === 'confirmed')).toMatchObject({
      confirmations: 1,
      required_confirmations: 1,
    });
    expect(entries.filter((e) => e.type === 'webhook_attempt')).toEqual([
      expect.objectContaining({ delivery_id: deliveryId, attempt: 1, status_code: 200 }),
    ]);
    expect(
      entries.flatMap((e) => (e.type === 'email' ? [[e.kind, e.recipient, e.status]] : [])).sort(),
    ).toEqual([
      ['customer_receipt', 'customer', 'sent'],
      ['merchant_notice', 'merchant', 'sent'],
    ]);
  });

  it.each([
    ['24.50', '24.5', '-2.0'],
    ['25.75', '25.75', '3.0'],
  ])('reports the signed difference when %s is paid for 25.00', async (paid, shown, difference) => {
    const product = await createProduct({ send_webhook: false, send_email: false });
    const expected = await expectPayment(product.id, '25.00');
    const session = await openSession(product.slug, {
      expected_payment_id: expected.id,
      sender_address: shopper(1),
      token_address: busd,
    });
    // The session's reference in the transfer pays it, whatever the amount.
    const tx = await chain.transfer(1, busd, merchant.address as Address, parseUnits(paid, 18), {
      reference: session.reference,
    });
    expect((await submit(session.id, tx)).status).toBe(200);
    await waitForSession(service, session.id, ['resolved']);
    const [payment] = await resolvedPayments(product.id);
    expect(payment!.payment).toMatchObject({
      received_token_amount: shown,
      amount_difference: difference,
      tx_success: true,
    });
  });

  it('resolves a swap: the shopper pays in DAI, the merchant receives exactly the BUSD', async () => {
    const product = await createProduct({ send_webhook: false, send_email: false });
    const expected = await expectPayment(product.id, '12.34');
    const dai = chain.deployment.tokens.DAI.address;
    const view = await service.request('GET', `/api/v1/checkout/${product.slug}`);
    expect(view.body.checkout.router_address).toBe(chain.deployment.router);
    expect(view.body.checkout.payment_tokens.map((t: { symbol: string }) => t.symbol)).toEqual(
      expect.arrayContaining(['BUSD', 'DAI']),
    );
    const session = await openSession(product.slug, {
      expected_payment_id: expected.id,
      sender_address: shopper(2),
      token_address: dai,
    });
    const tx = await chain.swapExactOut(
      2,
      dai,
      busd,
      parseUnits('12.34', 18),
      merchant.address as Address,
      session.reference,
    );
    expect((await submit(session.id, tx)).status).toBe(200);
    await waitForSession(service, session.id, ['resolved']);
    const [payment] = await resolvedPayments(product.id);
    expect(payment!.payment).toMatchObject({
      swapped: true,
      amount_difference: '0.0',
      received_token_amount: '12.34',
      sender_address: shopper(2),
    });
  });

  it("writes the shopper's receipt in the language the checkout was opened in, the merchant's in English", async () => {
    const product = await createProduct({ send_webhook: false, email: 'comerciante@example.com' });
    const view = await service.request('GET', `/api/v1/checkout/${product.slug}`);
    expect(view.body.checkout.sends_receipt).toBe(true);
    const expected = await expectPayment(product.id, '7.00');
    const session = await openSession(product.slug, {
      expected_payment_id: expected.id,
      sender_address: shopper(3),
      token_address: busd,
      email: 'compradora@example.com',
      locale: 'es-ES',
    });
    const tx = await chain.transfer(3, busd, merchant.address as Address, parseUnits('7', 18));
    expect((await submit(session.id, tx)).status).toBe(200);
    await waitForSession(service, session.id, ['resolved']);
    const receipt = await inbox.waitFor((m) => m.to.includes('compradora@example.com'), {
      timeoutMs: 20_000,
    });
    // Amounts as the element writes them in Spanish; the test payment said in Spanish, without the merchant's
    // instruction.
    expect(receipt.subject).toContain('[PRUEBA] Tu recibo de Espresso beans — 7,00\u00a0US$');
    expect(receipt.text).toContain('Pago de prueba: no se movió dinero.');
    expect(receipt.text).not.toContain('TEST PAYMENT');
    expect(receipt.text).toContain('Recibo');
    expect(receipt.text).not.toContain('Receipt');
    // A reply to the receipt goes to the merchant.
    expect(receipt.headers.find((h) => h.key === 'reply-to')?.value).toBe('comerciante@example.com');
    const notice = await inbox.waitFor((m) => m.to.includes('comerciante@example.com'), {
      timeoutMs: 20_000,
    });
    expect(notice.text).not.toContain('Recibo');

    // A language the receipts are not written in reads English; a malformed tag is refused by name.
    const bad = await service.request('POST', `/api/v1/checkout/${product.slug}/sessions`, {
      json: {
        email: 'x@example.com',
        custom_fields: { full_name: 'A' },
        dollar_amount: '1.00',
        sender_address: shopper(3),
        token_address: busd,
        locale: 'not a tag!',
      },
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('locale');
  });

  it('takes a USDT-style token without a bool return', async () => {
    const product = await createProduct({ send_webhook: false, send_email: false });
    const expected = await expectPayment(product.id, '5.00');
    const usdt = chain.deployment.tokens.USDT.address;
    const session = await openSession(product.slug, {
      expected_payment_id: expected.id,
      sender_address: shopper(3),
      token_address: usdt,
    });
    const tx = await chain.transfer(3, usdt, merchant.address as Address, parseUnits('5', 6), {
      reference: session.reference,
    });
    expect((await submit(session.id, tx)).status).toBe(200);
    await waitForSession(service, session.id, ['resolved']);
    const [payment] = await resolvedPayments(product.id);
    expect(payment!.payment).toMatchObject({
      received_token_amount: '5',
      amount_difference: '0.0',
      tx_success: true,
    });
    expect(payment!.payment.received_token.symbol).toBe('USDT');
  });

  it('records a reverted transaction as a failed payment', async () => {
    const product = await createProduct({ send_webhook: false, send_email: false });
    const expected = await expectPayment(product.id, '7.00');
    const session = await openSession(product.slug, {
      expected_payment_id: expected.id,
      sender_address: shopper(4),
      token_address: busd,
    });
    // More than the shopper holds, with a fixed gas limit so it is mined and reverts.
    const tx = await chain.sendReverting(
      4,
      busd,
      merchant.address as Address,
      parseUnits('99999999', 18),
      session.reference,
    );
    expect((await submit(session.id, tx)).status).toBe(200);
    const done = await waitForSession(service, session.id, ['failed']);
    expect(done.status).toBe('failed');
    const [payment] = await resolvedPayments(product.id);
    expect(payment!.payment).toMatchObject({
      tx_success: false,
      tx_failure: true,
      received_token_amount: '0',
    });
    const ep = await service.request('GET', `/api/v1/expected_payments/${expected.id}`, {
      headers: merchant.headers,
    });
    expect(ep.body.expected_payment.status).toBe('failed');
  });

  it('finds a payment whose hash never arrived (the tab was closed)', async () => {
    const product = await createProduct({ send_webhook: false, send_email: false, open_amount: true });
    const session = await openSession(product.slug, {
      dollar_amount: '3.21',
      sender_address: shopper(0),
      token_address: busd,
    });
    const tx = await chain.transfer(0, busd, merchant.address as Address, parseUnits('3.21', 18));
    const done = await waitForSession(service, session.id, ['resolved']);
    expect(done.tx_hash).toBe(tx.toLowerCase());
    const [payment] = await resolvedPayments(product.id);
    expect(payment!.payment).toMatchObject({ tx_id: tx.toLowerCase(), amount_difference: '0.0' });
    expect(payment!.user.email).toBe('shopper@example.com');
  });

  it('gives a payment to the checkout its transaction names, not to another of the same shopper', async () => {
    const product = await createProduct({ send_webhook: false, send_email: false });
    const first = await expectPayment(product.id, '2.50');
    const second = await expectPayment(product.id, '2.50');
    const a = await openSession(product.slug, {
      expected_payment_id: first.id,
      sender_address: shopper(4),
      token_address: busd,
    });
    const b = await openSession(product.slug, {
      expected_payment_id: second.id,
      sender_address: shopper(4),
      token_address: busd,
    });
    // `a` holds 2.50 exactly, `b` 2.50 and a tail: b's transaction names b, and pays it alone.
    expect(a.expected_token_amount).toBe('2.5');
    expect(b.expected_token_amount).not.toBe('2.5');
    const tx = await chain.send(4, b.transaction);
    expect((await submit(a.id, tx)).body).toMatchObject({ error_code: 'tx_not_for_session' });
    expect((await submit(b.id, tx)).status).toBe(200);
    await waitForSession(service, b.id, ['resolved']);
    const other = await service.request('GET', `/api/v1/checkout/sessions/${a.id}`);
    expect(other.body.session).toMatchObject({ status: 'awaiting_payment', tx_hash: null });
  });

  it('lets one transaction pay one checkout only', async () => {
    const product = await createProduct({ send_webhook: false, send_email: false });
    const first = await expectPayment(product.id, '1.00');
    const second = await expectPayment(product.id, '1.00');
    const a = await openSession(product.slug, {
      expected_payment_id: first.id,
      sender_address: shopper(1),
      token_address: busd,
    });
    // Another checkout of the same price: a transaction naming one pays that one only.
    const b = await openSession(product.slug, {
      expected_payment_id: second.id,
      sender_address: shopper(1),
      token_address: busd,
    });
    const tx = await chain.send(1, a.transaction);
    expect((await submit(a.id, tx)).status).toBe(200);
    const reuse = await submit(b.id, tx);
    expect(reuse.status).toBe(422);
    expect(reuse.body).toMatchObject({ error_code: 'tx_not_for_session', errors: [{ path: 'tx_hash' }] });
    await waitForSession(service, a.id, ['resolved']);
    expect((await submit(a.id, tx)).status).toBe(200); // the same hash again is harmless
    expect(await resolvedPayments(product.id)).toHaveLength(1);
  });

  it('refuses bad checkout input with the one error shape', async () => {
    const product = await createProduct({ send_webhook: false, send_email: false });
    const inactive = await createProduct({ active: false, send_webhook: false, send_email: false });
    const expected = await expectPayment(product.id, '2.00');
    const base = {
      email: 'a@example.com',
      custom_fields: { full_name: 'A' },
      sender_address: shopper(0),
      token_address: busd,
    };
    const cases: Array<[string, string, unknown, number, string]> = [
      ['GET', '/api/v1/checkout/nope', undefined, 404, 'record_not_found'],
      [
        'POST',
        '/api/v1/checkout/nope/sessions',
        { ...base, expected_payment_id: expected.id },
        404,
        'record_not_found',
      ],
      [
        'POST',
        `/api/v1/checkout/${inactive.slug}/sessions`,
        { ...base, dollar_amount: '1.00' },
        422,
        'product_inactive',
      ],
      [
        'POST',
        `/api/v1/checkout/${product.slug}/sessions`,
        { ...base, custom_fields: {}, expected_payment_id: expected.id },
        422,
        'record_invalid',
      ],
      [
        'POST',
        `/api/v1/checkout/${product.slug}/sessions`,
        {
          ...base,
          token_address: '0x0000000000000000000000000000000000000001',
          expected_payment_id: expected.id,
        },
        422,
        'record_invalid',
      ],
      [
        'POST',
        `/api/v1/checkout/${product.slug}/sessions`,
        { ...base, dollar_amount: '1.00' },
        422,
        'record_invalid',
      ],
      ['POST', `/api/v1/checkout/${product.slug}/sessions`, { ...base }, 422, 'record_invalid'],
      [
        'POST',
        `/api/v1/checkout/${product.slug}/sessions`,
        { ...base, expected_payment_id: crypto.randomUUID() },
        404,
        'record_not_found',
      ],
      [
        'POST',
        `/api/v1/products/${product.id}/expected_payments`,
        { dollar_amount: '1.005' },
        422,
        'record_invalid',
      ],
      [
        'POST',
        `/api/v1/products/${product.id}/expected_payments`,
        { dollar_amount: 25 },
        422,
        'record_invalid',
      ],
      [
        'POST',
        `/api/v1/products/${product.id}/expected_payments`,
        { dollar_amount: '0.00' },
        422,
        'record_invalid',
      ],
      [
        'POST',
        `/api/v1/products/${inactive.id}/expected_payments`,
        { dollar_amount: '1.00' },
        422,
        'product_inactive',
      ],
      [
        'POST',
        `/api/v1/checkout/sessions/${crypto.randomUUID()}/transactions`,
        { tx_hash: `0x${'1'.repeat(64)}` },
        404,
        'record_not_found',
      ],
    ];
    for (const [method, path, json, status, code] of cases) {
      const res = await service.request(method, path, {
        headers: path.includes('expected_payments') ? merchant.headers : {},
        ...(json === undefined ? {} : { json }),
      });
      expect(res.status, `${method} ${path} ${res.text}`).toBe(status);
      expect(res.body.error_code).toBe(code);
      expect(Object.keys(res.body).sort()).toEqual(['error_code', 'errors', 'message', 'status']);
    }
    const session = await openSession(product.slug, {
      expected_payment_id: expected.id,
      sender_address: shopper(0),
      token_address: busd,
    });
    for (const bad of ['0x1234', 'not-a-hash', `0x${'z'.repeat(64)}`, 42]) {
      const res = await service.request('POST', `/api/v1/checkout/sessions/${session.id}/transactions`, {
        json: { tx_hash: bad },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].path).toBe('tx_hash');
    }
  });
});
