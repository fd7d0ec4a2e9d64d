/**
 * GET /api/v1/resolved_payments/:id/timeline against the real server and database: a payment's records
 * (session, transfer, resolution, webhook deliveries with their attempts, e-mail claims, refunds and their
 * transfers, a reversal) come back as one list in time order, e-mails without their content; another
 * merchant, and a key without payments:read, never read it.
 */
import { PaymentTimelineResponse } from '@checkout/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';

const usdc = {
  blockchain: 'ethereum',
  network: 'mainnet',
  address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
};
const token = { symbol: 'USDC', name: 'USD Coin', decimal_count: 6, ...usdc };
const txHash = `0x${'ab'.repeat(32)}`;
const refundHash = `0x${'cd'.repeat(32)}`;
const blockHash = `0x${'ef'.repeat(32)}`;
const duplicateHash = `0x${'12'.repeat(32)}`;
const sender = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
/** Second `s` of 2026-11-01T10:00. */
const at = (s: number) => new Date(Date.UTC(2026, 10, 1, 10, 0, s));

describe.skipIf(databaseUnavailable())("a payment's timeline", () => {
  let service: TestService;
  let merchant: TestMerchant;
  let other: TestMerchant;
  let paymentId: string;
  let sessionId: string;
  let refundId: string;
  let deliveryId: string;
  let secondRefundId: string;

  const timeline = (who: TestMerchant, id = paymentId) =>
    service.request('GET', `/api/v1/resolved_payments/${id}/timeline`, { headers: who.headers });

  beforeAll(async () => {
    service = await startTestService({ temporal: false });
    merchant = await service.createMerchant();
    other = await service.createMerchant();
    const made = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: { product: { name: 'Tea', email: 'owner@example.com', token: usdc } },
    });
    const productId: string = made.body.product.id;
    const db = service.deps.db.kysely;
    paymentId = crypto.randomUUID();
    sessionId = crypto.randomUUID();
    const expectedId = crypto.randomUUID();
    await db
      .insertInto('expected_payments')
      .values({
        id: expectedId,
        merchant_id: merchant.merchantId,
        product_id: productId,
        dollar_amount: '25.00',
        metadata: JSON.stringify(null),
        customer_email: 'shopper@example.com',
        source: 'merchant',
        status: 'paid',
        resolved_payment_id: null,
        created_at: at(0),
        updated_at: at(0),
      })
      .execute();
    await db
      .insertInto('checkout_sessions')
      .values({
        id: sessionId,
        expected_payment_id: expectedId,
        product_id: productId,
        merchant_id: merchant.merchantId,
        email: 'shopper@example.com',
        custom_fields: JSON.stringify({}),
        sender_address: sender,
        payment_token_address: usdc.address,
        chain_id: 1,
        expected_token: JSON.stringify(token),
        expected_token_amount: '25000000',
        receiving_address: merchant.address,
        reference: '00'.repeat(32),
        client_secret_hash: null,
        amount_tail: null,
        deposit_address: null,
        locale: 'en',
        status: 'resolved',
        tx_hash: txHash,
        confirmations: 3,
        required_confirmations: 3,
        resolved_payment_id: paymentId,
        error: null,
        start_block: '100',
        expires_at: null,
        created_at: at(1),
        updated_at: at(20),
      })
      .execute();
    await db
      .insertInto('chain_transfers')
      .values({
        chain_id: 1,
        tx_hash: txHash,
        log_index: 0,
        block_number: '120',
        block_hash: blockHash,
        token_address: usdc.address.toLowerCase(),
        from_address: sender.toLowerCase(),
        tx_from: sender.toLowerCase(),
        to_address: merchant.address.toLowerCase(),
        amount: '25000000',
        seen_at: at(10),
      })
      .execute();
    await db
      .insertInto('resolved_payments')
      .values({
        id: paymentId,
        product_id: productId,
        expected_payment_id: expectedId,
        is_test: false,
        dollar_amount: '25.00',
        metadata: JSON.stringify(null),
        user_email: 'shopper@example.com',
        custom_fields: JSON.stringify({}),
        chain_id: 1,
        expected_token: JSON.stringify(token),
        received_token: JSON.stringify(token),
        expected_token_amount: '25000000',
        received_token_amount: '25000000',
        amount_difference: '0',
        receiving_address: merchant.address,
        sender_address: sender,
        tx_id: txHash,
        log_index: 0,
        tx_success: true,
        tx_failure: false,
        swapped: false,
        late: false,
        block_number: '120',
        block_hash: blockHash,
        created_at: at(20),
      })
      .execute();
    // The payment's webhook: one failed attempt (a 500 with its answer), then one that succeeded.
    deliveryId = crypto.randomUUID();
    await db
      .insertInto('webhook_deliveries')
      .values({
        id: deliveryId,
        merchant_id: merchant.merchantId,
        event_type: 'resolved_payment.created',
        subject_id: paymentId,
        product_id: productId,
        url: 'https://shop.example/hooks',
        payload: '{}',
        status: 'succeeded',
        last_status_code: 200,
        last_error: null,
        next_attempt_at: null,
        redelivery_of: null,
        sequence_subject: paymentId,
        event_sequence: 1,
        created_at: at(21),
        delivered_at: at(31),
      })
      .execute();
    await db
      .insertInto('webhook_attempts')
      .values([
        {
          id: crypto.randomUUID(),
          delivery_id: deliveryId,
          attempt: 1,
          started_at: at(22),
          duration_ms: 40,
          status_code: 500,
          error: null,
          response_snippet: 'database down',
        },
        {
          id: crypto.randomUUID(),
          delivery_id: deliveryId,
          attempt: 2,
          started_at: at(31),
          duration_ms: 12,
          status_code: 200,
          error: null,
          response_snippet: 'ok',
        },
      ])
      .execute();
    // The receipt was sent; the merchant's notice was given up with its outcome unknown.
    await db
      .insertInto('effect_claims')
      .values([
        {
          key: `email:customer_receipt:${paymentId}`,
          status: 'done',
          token: crypto.randomUUID(),
          claimed_until: at(30),
          result: JSON.stringify({ sentAt: at(24).toISOString() }),
          created_at: at(23),
          done_at: at(24),
        },
        {
          key: `email:merchant_notice:${paymentId}`,
          status: 'claimed',
          token: crypto.randomUUID(),
          claimed_until: at(30),
          created_at: at(25),
        },
      ])
      .execute();
    await db
      .insertInto('undelivered_emails')
      .values({
        id: crypto.randomUUID(),
        effect_key: `email:merchant_notice:${paymentId}`,
        merchant_id: merchant.merchantId,
        address_id: merchant.addressId,
        kind: 'merchant_notice',
        recipient: 'merchant',
        resolved_payment_id: paymentId,
        refund_id: null,
        unmatched_transfer_id: null,
        subject: 'Payment received',
        message_ciphertext: service.deps.secrets.seal('{}'),
        given_up_at: at(26),
      })
      .execute();
    // A refund asked through the API, paid on chain and confirmed; then the payment is reversed.
    const refund = await service.request('POST', `/api/v1/resolved_payments/${paymentId}/refunds`, {
      headers: merchant.headers,
      json: { reason: 'Out of stock', amount: '10' },
    });
    expect(refund.status, refund.text).toBe(201);
    refundId = refund.body.refund.id;
    await db
      .updateTable('refunds')
      .set({ created_at: at(40) })
      .where('id', '=', refundId)
      .execute();
    await db
      .insertInto('refund_transfers')
      .values({
        chain_id: 1,
        tx_hash: refundHash,
        log_index: 0,
        refund_id: refundId,
        block_number: '130',
        amount: '10000000',
        created_at: at(50),
      })
      .execute();
    await db
      .updateTable('refunds')
      .set({ status: 'confirmed', tx_hash: refundHash, confirmed_at: at(60), updated_at: at(60) })
      .where('id', '=', refundId)
      .execute();
    // A second payment of the same order, taken by no checkout: a duplicate about this payment.
    const duplicateId = crypto.randomUUID();
    await db
      .insertInto('unmatched_transfers')
      .values({
        id: duplicateId,
        merchant_id: merchant.merchantId,
        product_id: productId,
        chain_id: 1,
        tx_hash: duplicateHash,
        log_index: 0,
        block_number: '140',
        block_hash: null,
        token_address: usdc.address.toLowerCase(),
        token: JSON.stringify(token),
        amount: '25000000',
        sender_address: sender.toLowerCase(),
        receiving_address: merchant.address.toLowerCase(),
        kind: 'duplicate',
        status: 'open',
        resolved_payment_id: paymentId,
        expected_payment_id: null,
        note: null,
        created_at: at(65),
        updated_at: at(65),
      })
      .execute();
    // A second refund, still waiting for the customer's address (its e-mails need the worker).
    const second = await service.request('POST', `/api/v1/resolved_payments/${paymentId}/refunds`, {
      headers: merchant.headers,
      json: { reason: 'Goodwill', amount: '1' },
    });
    expect(second.status, second.text).toBe(201);
    secondRefundId = second.body.refund.id;
    await db
      .updateTable('resolved_payments')
      .set({ reversed_at: at(70) })
      .where('id', '=', paymentId)
      .execute();
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('lists everything that happened to the payment in time order', async () => {
    const res = await timeline(merchant);
    expect(res.status, res.text).toBe(200);
    const body = PaymentTimelineResponse.parse(res.body);
    expect(body.truncated).toBe(false);
    const times = body.timeline.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // The refund request queued its own webhooks (if any) and e-mails later: the payment's part is exact.
    const own = body.timeline.filter((e) => Date.parse(e.at) <= at(70).getTime());
    expect(own.map((e) => e.type)).toEqual([
      'session_opened',
      'transfer_seen',
      'confirmed',
      'resolved',
      'webhook_queued',
      'webhook_attempt',
      'email',
      'email',
      'webhook_attempt',
      'refund_requested',
      'refund_paid',
      'refund_confirmed',
      'unmatched_transfer',
      'reversed',
    ]);
    expect(own[0]).toEqual({ type: 'session_opened', at: at(1).toISOString(), session_id: sessionId });
    expect(own[1]).toEqual({
      type: 'transfer_seen',
      at: at(10).toISOString(),
      chain_id: 1,
      tx_hash: txHash,
      block_number: '120',
    });
    expect(own[2]).toMatchObject({ confirmations: 3, required_confirmations: 3 });
    expect(own[3]).toMatchObject({ amount: '25', symbol: 'USDC', exception_status: 'reversed' });
    expect(own[5]).toEqual({
      type: 'webhook_attempt',
      at: at(22).toISOString(),
      delivery_id: deliveryId,
      event_type: 'resolved_payment.created',
      attempt: 1,
      status_code: 500,
      error: null,
      duration_ms: 40,
      response_excerpt: 'database down',
    });
    expect(own[6]).toEqual({
      type: 'email',
      at: at(24).toISOString(),
      kind: 'customer_receipt',
      recipient: 'customer',
      status: 'sent',
      refund_id: null,
    });
    expect(own[7]).toMatchObject({
      kind: 'merchant_notice',
      recipient: 'merchant',
      status: 'outcome_unknown',
    });
    expect(own[8]).toMatchObject({ attempt: 2, status_code: 200, response_excerpt: 'ok' });
    expect(own[9]).toMatchObject({
      refund_id: refundId,
      amount: '10',
      symbol: 'USDC',
      reason: 'Out of stock',
    });
    expect(own[10]).toMatchObject({ tx_hash: refundHash, block_number: '130', amount: '10' });
    expect(own[11]).toMatchObject({ refund_id: refundId, tx_hash: refundHash });
    expect(own[12]).toMatchObject({
      type: 'unmatched_transfer',
      kind: 'duplicate',
      status: 'open',
      tx_hash: duplicateHash,
      amount: '25',
      symbol: 'USDC',
    });
    expect(own[13]).toEqual({ type: 'reversed', at: at(70).toISOString(), block_number: '120' });
    // No e-mail's address, subject or content is part of the timeline.
    expect(res.text).not.toContain('shopper@example.com');
    expect(res.text).not.toContain('owner@example.com');
  });

  it('answers 304 to If-None-Match until the payment changes, on the timeline, its refunds and the list', async () => {
    const paths = [
      `/api/v1/resolved_payments/${paymentId}/timeline`,
      `/api/v1/resolved_payments/${paymentId}/refunds`,
      '/api/v1/resolved_payments?limit=10',
    ];
    const etags: string[] = [];
    for (const path of paths) {
      const first = await service.request('GET', path, { headers: merchant.headers });
      const etag = first.headers.get('etag');
      expect(etag, path).toMatch(/^W\/"[\w-]{32}"$/);
      const again = await service.request('GET', path, {
        headers: { ...merchant.headers, 'if-none-match': etag! },
      });
      expect(again.status, path).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      etags.push(etag!);
    }
    // A refund canceled: the timeline, the refunds and the list (its payment's refunded state) all change.
    const canceled = await service.request('POST', `/api/v1/refunds/${secondRefundId}/cancel`, {
      headers: merchant.headers,
      json: { reason: 'Customer kept it' },
    });
    expect(canceled.status, canceled.text).toBe(200);
    const changed = await Promise.all(
      paths.map((path, i) =>
        service.request('GET', path, { headers: { ...merchant.headers, 'if-none-match': etags[i]! } }),
      ),
    );
    expect(changed.map((r) => r.status)).toEqual([200, 200, 304]);
    const entries = PaymentTimelineResponse.parse(changed[0]!.body).timeline;
    expect(entries.at(-1)).toMatchObject({
      type: 'refund_canceled',
      refund_id: secondRefundId,
      reason: 'Customer kept it',
    });
  });

  it('keeps other merchants and keys without payments:read out', async () => {
    const theirs = await timeline(other);
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toMatch(/Resolved payment/);
    expect((await timeline(merchant, crypto.randomUUID())).status).toBe(404);
    const made = await service.request('POST', '/api/v1/api_keys', {
      headers: merchant.headers,
      json: { name: 'products only', scopes: ['products:read'] },
    });
    const refused = await service.request('GET', `/api/v1/resolved_payments/${paymentId}/timeline`, {
      headers: { authorization: `Bearer ${made.body.key}`, 'x-address': merchant.address },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.errors).toEqual([{ path: 'scope', message: 'payments:read is required' }]);
  });
});
