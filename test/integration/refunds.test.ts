/**
 * Refunds through the merchant API and the customer's claim page: a refund of a resolved payment (all of
 * it, what was paid over, or part of it to the merchant's address) or of an unmatched transfer, claimed by
 * the customer, canceled by the merchant, never more than was received, announced once per status by the
 * signed `refund.updated` webhook. Real server and worker, real Temporal, a local EVM chain and a webhook
 * receiver.
 */
import { type Refund, Refund as RefundSchema } from '@checkout/core';
import { addRefundedAmount } from '@checkout/db';
import type { Address, Hash } from 'viem';
import { encodeFunctionData, erc20Abi, getAddress, parseUnits, zeroAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { randomAddress, startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { waitForDeliveries } from '../support/waitFor.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.ts';

describe.skipIf(databaseUnavailable())('refunds', () => {
  let chain: TestChain;
  let service: TestService;
  let receiver: WebhookReceiver;
  let busd: Address;

  beforeAll(async () => {
    [chain, receiver] = await Promise.all([startTestChain(), startWebhookReceiver()]);
    busd = chain.deployment.tokens.BUSD.address;
    service = await startTestService({
      env: {
        RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl,
        CHAIN_POLL_INTERVAL_MS: '100',
        CHECKOUT_GRACE_MINUTES: '5',
        CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS: '1',
        CHECKOUT_SCAN_INTERVAL_MS: '100',
        REFUND_CLAIM_DAYS: '10',
      },
    });
  });
  afterAll(async () => {
    await service?.stop();
    await Promise.all([chain?.stop(), receiver?.close()]);
  });

  /** A merchant of its own per test, with a product that sends webhooks. */
  const shop = async () => {
    const merchant = await service.createMerchant();
    const res = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Coffee',
          email: `merchant-${merchant.merchantId}@example.com`,
          active: true,
          open_amount: false,
          send_webhook: true,
          webhook_url: receiver.url,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd },
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    return { merchant, product: res.body.product as { id: string; slug: string } };
  };

  const pay = (index: number, to: string, amount: bigint): Promise<Hash> =>
    chain.transfer(index, busd, to as Address, amount);

  /** A resolved payment of `dollars` paid with `paid` BUSD by shopper `index` (its hash submitted). */
  const paidOrder = async (
    merchant: TestMerchant,
    productId: string,
    slug: string,
    index: number,
    dollars: string,
    paid: string,
  ) => {
    const expected = await service.request('POST', `/api/v1/products/${productId}/expected_payments`, {
      headers: merchant.headers,
      json: { dollar_amount: dollars, customer_email: 'shopper@example.com' },
    });
    expect(expected.status, expected.text).toBe(200);
    const opened = await service.request('POST', `/api/v1/checkout/${slug}/sessions`, {
      json: {
        email: 'shopper@example.com',
        token_address: busd,
        expected_payment_id: expected.body.expected_payment.id,
        sender_address: chain.deployment.shoppers[index]!.address,
        locale: 'es-ES',
      },
    });
    expect(opened.status, opened.text).toBe(200);
    const session = opened.body.session as { id: string; reference: string };
    // The element's transfer: it carries the session's reference, whatever the amount.
    const tx = await chain.transfer(index, busd, merchant.address as Address, parseUnits(paid, 18), {
      reference: session.reference,
    });
    const submitted = await service.request('POST', `/api/v1/checkout/sessions/${session.id}/transactions`, {
      json: { tx_hash: tx },
    });
    expect(submitted.status, submitted.text).toBe(200);
    const deadline = Date.now() + 45_000;
    for (;;) {
      const current = (await service.request('GET', `/api/v1/checkout/sessions/${session.id}`)).body.session;
      if (current.status === 'resolved') return current.resolved_payment_id as string;
      if (Date.now() > deadline) throw new Error(`session ${session.id} stayed ${current.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  const refundPayment = (merchant: TestMerchant, paymentId: string, json: unknown, headers = {}) =>
    service.request('POST', `/api/v1/resolved_payments/${paymentId}/refunds`, {
      headers: { ...merchant.headers, ...headers },
      json,
    });
  const getRefund = async (merchant: TestMerchant, id: string): Promise<Refund> => {
    const res = await service.request('GET', `/api/v1/refunds/${id}`, { headers: merchant.headers });
    expect(res.status, res.text).toBe(200);
    return RefundSchema.parse(res.body.refund);
  };
  const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
  const fieldsOf = (res: { body: { errors: { path: string }[] } }) => res.body.errors.map((e) => e.path);

  /** The `refund.updated` deliveries of a refund that reached the receiver, by status. */
  const hooksOf = (id: string) =>
    receiver.received
      .filter((h) => h.headers['x-webhook-event'] === 'refund.updated' && h.body.includes(id))
      .map((h) => JSON.parse(h.body).payload.refund as Refund);
  const waitForHooks = async (id: string, statuses: Refund['status'][]) => {
    await waitForDeliveries(service.deps.db.kysely, id, statuses.length);
    // Once each, and no other.
    expect(
      hooksOf(id)
        .map((r) => r.status)
        .sort(),
    ).toEqual([...statuses].sort());
  };

  it('refunds all a payment received by default, the customer claims it, and the merchant cancels it', async () => {
    const { merchant, product } = await shop();
    const paymentId = await paidOrder(merchant, product.id, product.slug, 0, '3.00', '3');

    const res = await refundPayment(merchant, paymentId, { reason: 'Out of stock' });
    expect(res.status, res.text).toBe(201);
    const refund = RefundSchema.parse(res.body.refund);
    expect(refund).toMatchObject({
      status: 'awaiting_address',
      resolved_payment_id: paymentId,
      unmatched_transfer_id: null,
      product_id: product.id,
      chain_id: 97,
      token: { symbol: 'BUSD' },
      amount: '3',
      amount_base_units: parseUnits('3', 18).toString(),
      reason: 'Out of stock',
      refund_address: null,
      address_source: null,
      from_address: getAddress(merchant.address),
      pay_url: null,
      payment_request: null,
    });
    expect(refund.claim_url).toMatch(/\/refunds\/claim\/[A-Za-z0-9_-]{43}$/);
    const days = (Date.parse(refund.claim_expires_at) - Date.parse(refund.created_at)) / 86_400_000;
    expect(days).toBeCloseTo(10, 5);
    const claimToken = tokenOf(refund.claim_url!);

    // The customer's page: no e-mail, no tokens; the language of the checkout's receipt.
    const page = await service.request('GET', `/api/v1/refund_claims/${claimToken}`);
    expect(page.status, page.text).toBe(200);
    expect(page.body.refund_claim).toMatchObject({
      status: 'awaiting_address',
      product_name: 'Coffee',
      amount: '3',
      reason: 'Out of stock',
      locale: 'es',
      refund_address: null,
    });
    expect(page.text).not.toContain('shopper@example.com');
    expect((await service.request('GET', '/api/v1/refund_claims/not-a-token')).status).toBe(404);

    // Addresses it could never arrive at, and input that is not an address, name the field.
    // A mixed-case address with a wrong EIP-55 checksum is mistyped; a contract (the swap router, another
    // token) may never pass the tokens on, and a customer's claim never goes there.
    const wrongChecksum = (() => {
      const good = getAddress(randomAddress());
      const at = good.slice(2).search(/[a-f]/) + 2;
      return `${good.slice(0, at)}${good[at]!.toUpperCase()}${good.slice(at + 1)}`;
    })();
    const contracts = [chain.deployment.router, chain.deployment.tokens.DAI.address];
    for (const bad of [zeroAddress, busd, merchant.address, 'nope', wrongChecksum, ...contracts]) {
      const refused = await service.request('POST', `/api/v1/refund_claims/${claimToken}`, {
        json: { refund_address: bad },
      });
      expect(refused.status, `${bad}: ${refused.text}`).toBe(422);
      expect(fieldsOf(refused)).toEqual(['refund_address']);
    }
    expect((await service.request('POST', `/api/v1/refund_claims/${claimToken}`, { json: {} })).status).toBe(
      422,
    );

    const customer = randomAddress();
    const claimed = await service.request('POST', `/api/v1/refund_claims/${claimToken}`, {
      json: { refund_address: customer.toLowerCase() },
    });
    expect(claimed.status, claimed.text).toBe(200);
    expect(claimed.body.refund_claim).toMatchObject({ status: 'ready_to_pay', refund_address: customer });
    const again = await service.request('POST', `/api/v1/refund_claims/${claimToken}`, {
      json: { refund_address: randomAddress() },
    });
    expect(again.status).toBe(409);

    const ready = await getRefund(merchant, refund.id);
    expect(ready).toMatchObject({
      status: 'ready_to_pay',
      refund_address: customer,
      address_source: 'customer',
      claim_url: null,
    });
    expect(ready.pay_url).toMatch(/\/refunds\/pay\/[A-Za-z0-9_-]{43}$/);
    const payPage = await service.request('GET', `/api/v1/refund_payments/${tokenOf(ready.pay_url!)}`);
    expect(payPage.status, payPage.text).toBe(200);
    expect(payPage.body.refund_payment).toMatchObject({
      status: 'ready_to_pay',
      amount: '3',
      from_address: getAddress(merchant.address),
      refund_address: customer,
      payment_request: ready.payment_request,
    });
    // The claim token does not open the pay page, nor the pay token the claim page.
    expect((await service.request('GET', `/api/v1/refund_payments/${claimToken}`)).status).toBe(404);
    expect((await service.request('GET', `/api/v1/refund_claims/${tokenOf(ready.pay_url!)}`)).status).toBe(
      404,
    );

    // All it received is asked for already: nothing more.
    const more = await refundPayment(merchant, paymentId, { reason: 'again', amount: '0.5' });
    expect(more.status, more.text).toBe(422);
    expect(fieldsOf(more)).toEqual(['amount']);

    const canceled = await service.request('POST', `/api/v1/refunds/${refund.id}/cancel`, {
      headers: merchant.headers,
    });
    expect(canceled.status, canceled.text).toBe(200);
    expect(canceled.body.refund).toMatchObject({ status: 'canceled', pay_url: expect.any(String) });
    const twice = await service.request('POST', `/api/v1/refunds/${refund.id}/cancel`, {
      headers: merchant.headers,
    });
    expect(twice.status).toBe(409);
    expect(twice.body.error_code).toBe('conflict');
    // The audit log names the key that asked for the refund and canceled it; the refused cancel left no line.
    const log = await service.request('GET', '/api/v1/audit_log', { headers: merchant.headers });
    expect(
      log.body.audit_events.map((e: { action: string; subject_id: string }) => [e.action, e.subject_id]),
    ).toEqual([
      ['refund.canceled', refund.id],
      ['refund.requested', refund.id],
    ]);
    expect(log.body.audit_events[0].actor).toEqual({ kind: 'api_key', id: expect.any(String) });
    expect(log.body.audit_events[1].detail).toMatchObject({ resolved_payment_id: paymentId, amount: '3' });

    // A canceled refund no longer counts: the payment can be refunded again.
    expect((await refundPayment(merchant, paymentId, { reason: 'again', amount: '0.5' })).status).toBe(201);
    const listed = await service.request('GET', `/api/v1/resolved_payments/${paymentId}/refunds`, {
      headers: merchant.headers,
    });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.refunds.map((r: Refund) => [r.amount, r.status])).toEqual([
      ['0.5', 'awaiting_address'],
      ['3', 'canceled'],
    ]);

    await waitForHooks(refund.id, ['awaiting_address', 'ready_to_pay', 'canceled']);
    const last = hooksOf(refund.id).find((r) => r.status === 'canceled');
    expect(last).toMatchObject({ id: refund.id, refund_address: customer });
  });

  it('refunds part of a payment to an address the merchant gives: ready to pay at once, with its exact transfer', async () => {
    const { merchant, product } = await shop();
    const paymentId = await paidOrder(merchant, product.id, product.slug, 1, '3.00', '3');
    const to = randomAddress();

    for (const [amount, why] of [
      ['0', 'zero'],
      ['0.0000000000000000001', 'more decimals than the token'],
      ['-1', 'negative'],
      ['1e3', 'not a decimal'],
      ['overpaid', 'nothing paid over'],
      ['3.01', 'more than received'],
    ]) {
      const refused = await refundPayment(merchant, paymentId, { reason: 'r', amount, refund_address: to });
      expect(refused.status, `${why}: ${refused.text}`).toBe(422);
      expect(fieldsOf(refused), why).toEqual(['amount']);
    }
    const noReason = await refundPayment(merchant, paymentId, { amount: '1' });
    expect(noReason.status).toBe(422);
    expect(fieldsOf(noReason)).toEqual(['reason']);
    const badAddress = await refundPayment(merchant, paymentId, { reason: 'r', refund_address: busd });
    expect(badAddress.status).toBe(422);
    expect(fieldsOf(badAddress)).toEqual(['refund_address']);

    const headers = { 'Idempotency-Key': `refund-${paymentId}` };
    const res = await refundPayment(
      merchant,
      paymentId,
      { reason: 'Damaged cup', amount: '1.25', refund_address: to.toLowerCase() },
      headers,
    );
    expect(res.status, res.text).toBe(201);
    const refund = RefundSchema.parse(res.body.refund);
    const units = parseUnits('1.25', 18);
    expect(refund).toMatchObject({
      status: 'ready_to_pay',
      amount: '1.25',
      amount_base_units: units.toString(),
      refund_address: to,
      address_source: 'merchant',
      claim_url: null,
    });
    expect(refund.payment_request).toEqual({
      uri: `ethereum:${getAddress(busd)}@97/transfer?address=${to}&uint256=${units}`,
      transaction: {
        chain_id: 97,
        from: getAddress(merchant.address),
        to: getAddress(busd),
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to as Address, units] }),
        value: '0',
      },
    });

    // A retried request with the same key answers the same refund, and records nothing more.
    const replay = await refundPayment(
      merchant,
      paymentId,
      { reason: 'Damaged cup', amount: '1.25', refund_address: to.toLowerCase() },
      headers,
    );
    expect(replay.status).toBe(201);
    expect(replay.body.refund.id).toBe(refund.id);

    // 1.25 + 1.75 is all it received; one base unit more is refused.
    const over = await refundPayment(merchant, paymentId, { reason: 'r', amount: '1.750000000000000001' });
    expect(over.status, over.text).toBe(422);
    expect(fieldsOf(over)).toEqual(['amount']);
    const rest = await refundPayment(merchant, paymentId, { reason: 'The rest', amount: '1.75' });
    expect(rest.status, rest.text).toBe(201);

    const list = async (query: string) => {
      const found = await service.request('GET', `/api/v1/refunds${query}`, { headers: merchant.headers });
      expect(found.status, found.text).toBe(200);
      return (found.body.refunds as Refund[]).map((r) => r.id);
    };
    expect(await list('')).toEqual([rest.body.refund.id, refund.id]);
    expect(await list('?status=ready_to_pay')).toEqual([refund.id]);
    expect(await list(`?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual(
      [],
    );
    const badQuery = await service.request('GET', '/api/v1/refunds?status=paid', {
      headers: merchant.headers,
    });
    expect(badQuery.status).toBe(422);
    expect(fieldsOf(badQuery)).toEqual(['status']);

    await waitForHooks(refund.id, ['ready_to_pay']);

    // Confirmed refunds show on the payment (refunded_amount is what they gave back).
    const exception = async () =>
      (
        await service.request('GET', `/api/v1/products/${product.id}/resolved_payments`, {
          headers: merchant.headers,
        })
      ).body.resolved_payments[0].payment.exception_status;
    await addRefundedAmount(service.db.kysely, paymentId, units);
    expect(await exception()).toBe('partially_refunded');
    await addRefundedAmount(service.db.kysely, paymentId, parseUnits('1.75', 18));
    expect(await exception()).toBe('refunded');
  });

  it('refunds what a payment received above its price', async () => {
    const { merchant, product } = await shop();
    const paymentId = await paidOrder(merchant, product.id, product.slug, 2, '3.00', '3.1');
    const res = await refundPayment(merchant, paymentId, { reason: 'Paid over', amount: 'overpaid' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.refund).toMatchObject({ amount: '0.1', status: 'awaiting_address' });
    // A contract as the refund's address only when the merchant says so.
    const router = chain.deployment.router;
    const refused = await refundPayment(merchant, paymentId, {
      reason: 'To the desk',
      amount: '1',
      refund_address: router,
    });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.errors).toEqual([
      { path: 'refund_address', message: expect.stringContaining('contract') },
    ]);
    const allowed = await refundPayment(merchant, paymentId, {
      reason: 'To the desk',
      amount: '1',
      refund_address: router,
      allow_contract: true,
    });
    expect(allowed.status, allowed.text).toBe(201);
    expect(allowed.body.refund).toMatchObject({ status: 'ready_to_pay', refund_address: getAddress(router) });
  });

  it('refunds an unmatched transfer (it becomes refunded), and a canceled refund gives it back; another merchant sees none of it', async () => {
    const { merchant, product } = await shop();
    const paymentId = await paidOrder(merchant, product.id, product.slug, 3, '2.00', '2');
    // A second payment of the paid order: an unmatched transfer.
    const tx = await pay(3, merchant.address, parseUnits('2', 18));
    const deadline = Date.now() + 45_000;
    let transfer: { id: string; status: string } | undefined;
    while (!transfer) {
      const res = await service.request('GET', '/api/v1/unmatched_transfers', { headers: merchant.headers });
      transfer = res.body.unmatched_transfers.find(
        (u: { tx_hash: string }) => u.tx_hash === tx.toLowerCase(),
      );
      if (!transfer && Date.now() > deadline) throw new Error(`no unmatched transfer: ${res.text}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const transferStatus = async () =>
      (
        await service.request('GET', `/api/v1/unmatched_transfers/${transfer!.id}`, {
          headers: merchant.headers,
        })
      ).body.unmatched_transfer.status;

    const overpaid = await service.request('POST', `/api/v1/unmatched_transfers/${transfer.id}/refunds`, {
      headers: merchant.headers,
      json: { reason: 'r', amount: 'overpaid' },
    });
    expect(overpaid.status).toBe(422);
    expect(fieldsOf(overpaid)).toEqual(['amount']);

    const res = await service.request('POST', `/api/v1/unmatched_transfers/${transfer.id}/refunds`, {
      headers: merchant.headers,
      json: { reason: 'Paid twice', email: 'payer@example.com' },
    });
    expect(res.status, res.text).toBe(201);
    const refund = RefundSchema.parse(res.body.refund);
    expect(refund).toMatchObject({
      status: 'awaiting_address',
      resolved_payment_id: null,
      unmatched_transfer_id: transfer.id,
      amount: '2',
      from_address: getAddress(merchant.address),
    });
    expect(refund.claim_url).not.toBeNull();
    expect(await transferStatus()).toBe('refunded');
    const second = await service.request('POST', `/api/v1/unmatched_transfers/${transfer.id}/refunds`, {
      headers: merchant.headers,
      json: { reason: 'again' },
    });
    expect(second.status).toBe(409);
    const claimPage = await service.request('GET', `/api/v1/refund_claims/${tokenOf(refund.claim_url!)}`);
    expect(claimPage.body.refund_claim).toMatchObject({ locale: 'en', amount: '2' });

    // Another merchant: every refund route answers 404, as for a refund that does not exist.
    const other = await service.createMerchant();
    for (const [method, path, json] of [
      ['GET', `/api/v1/refunds/${refund.id}`, undefined],
      ['POST', `/api/v1/refunds/${refund.id}/cancel`, undefined],
      ['GET', `/api/v1/resolved_payments/${paymentId}/refunds`, undefined],
      ['POST', `/api/v1/resolved_payments/${paymentId}/refunds`, { reason: 'mine' }],
      ['POST', `/api/v1/unmatched_transfers/${transfer.id}/refunds`, { reason: 'mine' }],
    ] as const) {
      const res = await service.request(method, path, { headers: other.headers, json });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(404);
      expect(res.body.error_code).toBe('record_not_found');
    }
    expect(
      (await service.request('GET', '/api/v1/refunds', { headers: other.headers })).body.refunds,
    ).toEqual([]);
    expect(
      (await service.request('GET', '/api/v1/audit_log', { headers: other.headers })).body.audit_events,
    ).toEqual([]);

    // Once its window is over the refund takes no address (its workflow expires it).
    await service.db.kysely
      .updateTable('refunds')
      .set({ claim_expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', refund.id)
      .execute();
    const late = await service.request('POST', `/api/v1/refund_claims/${tokenOf(refund.claim_url!)}`, {
      json: { refund_address: randomAddress() },
    });
    expect(late.status, late.text).toBe(409);

    const canceled = await service.request('POST', `/api/v1/refunds/${refund.id}/cancel`, {
      headers: merchant.headers,
    });
    expect(canceled.status, canceled.text).toBe(200);
    expect(await transferStatus()).toBe('open');
    await waitForHooks(refund.id, ['awaiting_address', 'canceled']);
  });

  it("limits the refund pages' routes per client like the public checkout API", async () => {
    const limited = await startTestService({ temporal: false, env: { PUBLIC_RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const statuses: number[] = [];
      for (const path of ['refund_claims/a', 'refund_payments/b', 'refund_claims/c', 'refund_payments/d'])
        statuses.push((await limited.request('GET', `/api/v1/${path}`)).status);
      expect(statuses).toEqual([404, 404, 404, 429]);
    } finally {
      await limited.stop();
    }
  });
});
