/**
 * The sandbox's outcome moves through their routes, on a dev chain with the real service, worker and
 * Temporal: each checkout outcome (paid, underpaid, overpaid, expired, paid late, paid twice, unmatched,
 * failed, reversed) and each refund outcome (claimed, paid, expired) happens with real transactions, and its
 * consequences are the service's own: the session's status, the resolved payment and its exception, the
 * webhooks (one payment's numbered in order across its whole life), the e-mails, the reorganisation. One
 * chain and one service for the file.
 */
import type { ResolvedPayment } from '@checkout/core';
import type { DevInbox } from '@checkout/mail';
import { type Address, erc20Abi, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestChain } from '../support/chain.ts';
import { type ChainService, startChainService } from '../support/chainService.ts';
import { databaseUnavailable } from '../support/database.ts';
import type { TestMerchant, TestService } from '../support/service.ts';
import type { WebhookReceiver } from '../support/webhookReceiver.ts';

describe.skipIf(databaseUnavailable())('the sandbox makes each outcome happen', () => {
  let chain: TestChain;
  let service: TestService;
  let inbox: DevInbox;
  let receiver: WebhookReceiver;
  let busd: Address;

  let setup: ChainService | undefined;
  beforeAll(async () => {
    setup = await startChainService({
      CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS: '0',
      CHECKOUT_SCAN_INTERVAL_MS: '200',
      // Each unmatched transfer e-mailed at once, not in a batch every 5 minutes.
      UNMATCHED_EMAIL_INTERVAL_SECONDS: '0',
      // A session without a payer gets an address of its own, as under `npm start`.
      PHONE_PAYMENT_MODE_BINANCE_SMART_CHAIN_TESTNET: 'deposit_address',
    });
    ({ chain, service, inbox, receiver, busd } = setup);
  });
  afterAll(() => setup?.stop());

  const emailOf = (merchant: TestMerchant) => `m-${merchant.merchantId}@example.com`;

  /** A product paying into the merchant's wallet, an expected payment of `dollars`, and its session. */
  const shopOrder = async (merchant: TestMerchant, dollars: string, options: { payer?: boolean } = {}) => {
    const product = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Tea',
          email: emailOf(merchant),
          active: true,
          // The shopper's receipt too, beside the merchant's notice.
          send_email: true,
          email_body: 'Thank you for your order.',
          send_webhook: true,
          webhook_url: receiver.url,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd },
        },
      },
    });
    expect(product.status, product.text).toBe(200);
    const productId = product.body.product.id as string;
    const expected = await service.request('POST', `/api/v1/products/${productId}/expected_payments`, {
      headers: merchant.headers,
      json: { dollar_amount: dollars },
    });
    expect(expected.status, expected.text).toBe(200);
    const session = await service.request('POST', `/api/v1/checkout/${product.body.product.slug}/sessions`, {
      json: {
        email: 'shopper@example.com',
        expected_payment_id: expected.body.expected_payment.id,
        ...(options.payer === false ? {} : { sender_address: chain.deployment.shoppers[0]!.address }),
        token_address: busd,
      },
    });
    expect(session.status, session.text).toBe(200);
    return {
      depositAddress: session.body.session.deposit_address as string | null,
      productId,
      expectedPaymentId: expected.body.expected_payment.id as string,
      sessionId: session.body.session.id as string,
    };
  };

  const simulate = (merchant: TestMerchant, sessionId: string, json: unknown) =>
    service.request('POST', `/sandbox/checkout/sessions/${sessionId}/simulate`, {
      headers: merchant.headers,
      json,
    });
  const simulateRefund = (merchant: TestMerchant, refundId: string, json: unknown) =>
    service.request('POST', `/sandbox/refunds/${refundId}/simulate`, { headers: merchant.headers, json });

  /** Reads until `done` holds (the service's consequences come from its workflows, moments later). */
  const waitFor = async <T>(read: () => Promise<T>, done: (v: T) => boolean, what: string): Promise<T> => {
    const deadline = Date.now() + 45_000;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`${what}: ${JSON.stringify(value)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const sessionOf = async (id: string) =>
    (await service.request('GET', `/api/v1/checkout/sessions/${id}`)).body.session;
  const sessionIn = (id: string, statuses: string[]) =>
    waitFor(
      () => sessionOf(id),
      (s) => statuses.includes(s.status),
      `session never ${statuses.join('/')}`,
    );
  const payments = async (merchant: TestMerchant, productId: string) =>
    (
      await service.request('GET', `/api/v1/products/${productId}/resolved_payments`, {
        headers: merchant.headers,
      })
    ).body.resolved_payments as ResolvedPayment[];
  const paymentWith = (merchant: TestMerchant, productId: string, done: (p: ResolvedPayment) => boolean) =>
    waitFor(
      () => payments(merchant, productId),
      (l) => l.length === 1 && done(l[0]!),
      'the resolved payment never showed it',
    ).then((l) => l[0]!);
  const hooks = (event: string, id: string) =>
    receiver.received.filter((h) => h.headers['x-webhook-event'] === event && h.body.includes(id));
  /** The e-mail to `to` whose subject starts with `subject` (the sandbox's is a test's: `[TEST] `) and whose text names `names`. */
  const mailArrives = async (to: string, subject: string, names: string) => {
    try {
      return await inbox.waitFor(
        (m) => m.to.includes(to) && m.subject.startsWith(subject) && m.text.includes(names),
        { timeoutMs: 30_000 },
      );
    } catch {
      const seen = (await inbox.list()).filter((m) => m.to.includes(to)).map((m) => m.subject);
      throw new Error(`no e-mail to ${to} "${subject}…" naming ${names}; it has: ${seen.join(' | ')}`);
    }
  };
  const shopper = 'shopper@example.com';
  const hookArrives = (event: string, id: string) =>
    waitFor(
      async () => hooks(event, id),
      (h) => h.length > 0,
      `no ${event} webhook`,
    );

  it('paid: the exact price, resolved and announced', async () => {
    const merchant = await service.createMerchant();
    const order = await shopOrder(merchant, '2.00');
    const res = await simulate(merchant, order.sessionId, { outcome: 'paid' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.outcome).toBe('paid');
    expect(res.body.transactions).toHaveLength(1);
    expect(res.body.transactions[0]).toMatchObject({ status: 'success' });
    expect(res.body.session.id).toBe(order.sessionId);
    const session = await sessionIn(order.sessionId, ['resolved']);
    expect(session.tx_hash).toBe(res.body.transactions[0].tx_hash);
    const payment = await paymentWith(merchant, order.productId, () => true);
    expect(payment.payment).toMatchObject({ exception_status: null, tx_success: true });
    expect(payment.payment.tx_id).toBe(res.body.transactions[0].tx_hash);
    await hookArrives('resolved_payment.created', payment.id);
    await mailArrives(emailOf(merchant), '[TEST] Payment received: Tea — 2.00 USD', payment.id);
    const receipt = await mailArrives(shopper, '[TEST] ', payment.id);
    expect(receipt.subject).toContain('Your receipt for Tea');
    expect(receipt.text).toContain(payment.payment.tx_id);
    // Paid now: another paying outcome is refused, naming why.
    const again = await simulate(merchant, order.sessionId, { outcome: 'paid' });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('resolved');
  });

  it("paid, paid twice and reversed without a payer: into the session's own deposit address, swept to the merchant", async () => {
    const merchant = await service.createMerchant();
    const order = await shopOrder(merchant, '2.00', { payer: false });
    expect(order.depositAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const res = await simulate(merchant, order.sessionId, { outcome: 'paid' });
    expect(res.status, res.text).toBe(200);
    const sent = await chain.publicClient.getTransactionReceipt({ hash: res.body.transactions[0].tx_hash });
    expect(sent.logs[0]!.topics[2]!.slice(-40)).toBe(order.depositAddress!.slice(2).toLowerCase());
    await sessionIn(order.sessionId, ['resolved']);
    const payment = await paymentWith(merchant, order.productId, () => true);
    expect(payment.payment).toMatchObject({ exception_status: null, received_token_amount: '2' });
    await hookArrives('resolved_payment.created', payment.id);
    await waitFor(
      () =>
        chain.publicClient.readContract({
          address: busd,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [merchant.address as Address],
        }),
      (balance) => balance === parseUnits('2', 18),
      'the deposit was never swept to the merchant',
    );

    const twice = await shopOrder(merchant, '3.00', { payer: false });
    const again = await simulate(merchant, twice.sessionId, { outcome: 'paid_twice' });
    expect(again.status, again.text).toBe(200);
    expect(again.body.transactions).toHaveLength(2);
    const doubled = await paymentWith(merchant, twice.productId, (p) => p.payment.exception_status !== null);
    expect(doubled.payment.exception_status).toBe('paid_twice');

    const gone = await shopOrder(merchant, '4.00', { payer: false });
    const reversed = await simulate(merchant, gone.sessionId, { outcome: 'reversed' });
    expect(reversed.status, reversed.text).toBe(200);
    expect(reversed.body.removed_blocks).toContain(reversed.body.transactions[0].block_hash);
    const payment2 = await paymentWith(
      merchant,
      gone.productId,
      (p) => p.payment.exception_status === 'reversed',
    );
    await hookArrives('resolved_payment.reversed', payment2.id);
  });

  it('underpaid by a percentage and overpaid by an amount: resolved short and over', async () => {
    const merchant = await service.createMerchant();
    const short = await shopOrder(merchant, '5.00');
    const under = await simulate(merchant, short.sessionId, { outcome: 'underpaid', percent: 2 });
    expect(under.status, under.text).toBe(200);
    const shortPayment = await paymentWith(
      merchant,
      short.productId,
      (p) => p.payment.exception_status !== null,
    );
    expect(shortPayment.payment.exception_status).toBe('paid_partially');
    expect(shortPayment.payment.received_token_amount).toBe('4.9');
    expect((await sessionOf(short.sessionId)).status).toBe('resolved');
    await mailArrives(emailOf(merchant), '[TEST] Underpayment (paid_partially): Tea', shortPayment.id);

    const merchant2 = await service.createMerchant();
    const over = await shopOrder(merchant2, '5.00');
    const res = await simulate(merchant2, over.sessionId, { outcome: 'overpaid', amount: '0.5' });
    expect(res.status, res.text).toBe(200);
    const overPayment = await paymentWith(merchant2, over.productId, () => true);
    expect(overPayment.payment.exception_status).toBe('paid_over');
    expect(overPayment.payment.received_token_amount).toBe('5.5');
    await hookArrives('resolved_payment.created', overPayment.id);
    await mailArrives(emailOf(merchant2), '[TEST] Overpayment (paid_over): Tea', overPayment.id);
  });

  it('expired now, through its workflow; then paid late, within the grace', async () => {
    const merchant = await service.createMerchant();
    const order = await shopOrder(merchant, '3.00');
    const res = await simulate(merchant, order.sessionId, { outcome: 'expired' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.transactions).toEqual([]);
    expect(res.body.session.status).toBe('expired');
    expect(Date.parse(res.body.session.expires_at)).toBeLessThanOrEqual(Date.now());
    const expected = await service.request('GET', `/api/v1/expected_payments/${order.expectedPaymentId}`, {
      headers: merchant.headers,
    });
    expect(expected.body.expected_payment.status).toBe('expired');

    const late = await simulate(merchant, order.sessionId, { outcome: 'paid_late' });
    expect(late.status, late.text).toBe(200);
    expect(late.body.transactions).toHaveLength(1);
    const session = await sessionIn(order.sessionId, ['resolved']);
    expect(session.late).toBe(true);
    const payment = await paymentWith(merchant, order.productId, () => true);
    expect(payment.payment.exception_status).toBe('paid_late');
    await hookArrives('resolved_payment.created', payment.id);
    const notice = await mailArrives(
      emailOf(merchant),
      '[TEST] Payment received (paid_late): Tea',
      payment.id,
    );
    expect(notice.text).toMatch(/Exception status: +paid_late/);
  });

  it('paid late from a checkout awaiting its payment: it expires first', async () => {
    const merchant = await service.createMerchant();
    const order = await shopOrder(merchant, '1.50');
    const late = await simulate(merchant, order.sessionId, { outcome: 'paid_late' });
    expect(late.status, late.text).toBe(200);
    const payment = await paymentWith(merchant, order.productId, () => true);
    expect(payment.payment.exception_status).toBe('paid_late');
    expect((await sessionOf(order.sessionId)).late).toBe(true);
  });

  it('paid twice: the second transfer is the payment paid twice', async () => {
    const merchant = await service.createMerchant();
    const order = await shopOrder(merchant, '2.50');
    const res = await simulate(merchant, order.sessionId, { outcome: 'paid_twice' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.transactions).toHaveLength(2);
    expect(res.body.session.status).toBe('resolved');
    const payment = await paymentWith(merchant, order.productId, (p) => p.payment.exception_status !== null);
    expect(payment.payment.exception_status).toBe('paid_twice');
    expect(payment.payment.tx_id).toBe(res.body.transactions[0].tx_hash);
    const [updated] = await hookArrives('resolved_payment.updated', payment.id);
    // The payment's events are numbered in the order they happened: created 1, updated 2.
    const [created] = await hookArrives('resolved_payment.created', payment.id);
    expect([created!.headers['x-event-sequence'], updated!.headers['x-event-sequence']]).toEqual(['1', '2']);
    expect(created!.headers['x-event-id']).not.toBe(updated!.headers['x-event-id']);
    // The merchant hears of the second transfer, to refund it.
    await mailArrives(
      emailOf(merchant),
      '[TEST] Unmatched transfer (duplicate)',
      res.body.transactions[1].tx_hash,
    );
  });

  it('unmatched: a transfer into the receiving address that fits no order', async () => {
    const merchant = await service.createMerchant();
    const order = await shopOrder(merchant, '4.00');
    const res = await simulate(merchant, order.sessionId, { outcome: 'unmatched' });
    expect(res.status, res.text).toBe(200);
    const [sent] = res.body.transactions;
    const listed = await waitFor(
      async () =>
        (await service.request('GET', '/api/v1/unmatched_transfers', { headers: merchant.headers })).body
          .unmatched_transfers as { id: string; tx_hash: string; status: string }[],
      (l) => l.length === 1,
      'the transfer was never recorded as unmatched',
    );
    expect(listed[0]).toMatchObject({ tx_hash: sent.tx_hash, status: 'open' });
    await hookArrives('unmatched_transfer.created', listed[0]!.id);
    await mailArrives(emailOf(merchant), '[TEST] Unmatched transfer', sent.tx_hash);
    // The order itself still awaits its payment.
    expect((await sessionOf(order.sessionId)).status).toBe('awaiting_payment');
  });

  it('failed: a reverted transaction carrying the reference', async () => {
    const merchant = await service.createMerchant();
    const order = await shopOrder(merchant, '2.00');
    const res = await simulate(merchant, order.sessionId, { outcome: 'failed' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.transactions[0].status).toBe('reverted');
    await sessionIn(order.sessionId, ['failed']);
    const payment = await paymentWith(merchant, order.productId, () => true);
    expect(payment.payment).toMatchObject({
      tx_failure: true,
      tx_success: false,
      received_token_amount: '0',
    });
    const notice = await mailArrives(emailOf(merchant), '[TEST] Payment failed: Tea', payment.id);
    expect(notice.text).toContain('Do not fulfil');
    const receipt = await mailArrives(shopper, '[TEST] ', payment.id);
    expect(receipt.text).toContain(res.body.transactions[0].tx_hash);
  });

  it('reversed: the payment is reorganised away after its resolution, announced by webhook and e-mail', async () => {
    const merchant = await service.createMerchant();
    const order = await shopOrder(merchant, '2.00');
    const res = await simulate(merchant, order.sessionId, { outcome: 'reversed' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.removed_blocks).toContain(res.body.transactions[0].block_hash);
    // The chain no longer has the payment's transaction.
    const gone = await chain.publicClient
      .getTransactionReceipt({ hash: res.body.transactions[0].tx_hash })
      .then(
        () => false,
        () => true,
      );
    expect(gone).toBe(true);
    const payment = await paymentWith(
      merchant,
      order.productId,
      (p) => p.payment.exception_status === 'reversed',
    );
    await hookArrives('resolved_payment.reversed', payment.id);
    const notice = await inbox.waitFor(
      (m) => m.to.includes(emailOf(merchant)) && m.subject.startsWith('[TEST] Payment reversed'),
      { timeoutMs: 30_000 },
    );
    expect(notice.text).toContain(res.body.transactions[0].tx_hash);
  });

  it('refunds: claimed with an address, paid from the merchant wallet, and another expired now', async () => {
    const merchant = await service.createMerchant();
    const order = await shopOrder(merchant, '3.00');
    expect((await simulate(merchant, order.sessionId, { outcome: 'paid' })).status).toBe(200);
    const payment = await paymentWith(merchant, order.productId, () => true);
    const refund = async () => {
      const res = await service.request('POST', `/api/v1/resolved_payments/${payment.id}/refunds`, {
        headers: merchant.headers,
        json: { reason: 'Changed my mind', amount: '1' },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body.refund.status).toBe('awaiting_address');
      return res.body.refund.id as string;
    };
    const first = await refund();
    // The customer is asked for an address by e-mail.
    const asked = await mailArrives(shopper, '[TEST] ', first);
    expect(asked.subject).toContain('is waiting for you');
    const customer = chain.deployment.shoppers[1]!.address;
    const claimed = await simulateRefund(merchant, first, { outcome: 'claimed', refund_address: customer });
    expect(claimed.status, claimed.text).toBe(200);
    expect(claimed.body.refund).toMatchObject({ status: 'ready_to_pay', refund_address: customer });

    const paid = await simulateRefund(merchant, first, { outcome: 'paid' });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.transactions).toHaveLength(1);
    expect(['sent', 'confirmed']).toContain(paid.body.refund.status);
    expect(paid.body.refund.tx_hash).toBe(paid.body.transactions[0].tx_hash);
    await waitFor(
      async () => hooks('refund.updated', first).map((h) => JSON.parse(h.body).payload.refund.status),
      (s) => s.includes('confirmed'),
      'the refund was never announced confirmed',
    );
    await mailArrives(emailOf(merchant), '[TEST] Refund ready to pay: 1 BUSD', first);
    await mailArrives(emailOf(merchant), '[TEST] Refund confirmed: 1 BUSD', first);
    const arrived = await inbox.waitFor(
      (m) => m.to.includes(shopper) && m.text.includes(first) && m.subject.includes('has arrived'),
      { timeoutMs: 30_000 },
    );
    expect(arrived.text).toContain(paid.body.transactions[0].tx_hash);

    const second = await refund();
    const expired = await simulateRefund(merchant, second, { outcome: 'expired' });
    expect(expired.status, expired.text).toBe(200);
    expect(expired.body.refund.status).toBe('expired');
    await waitFor(
      async () => hooks('refund.updated', second).map((h) => JSON.parse(h.body).payload.refund.status),
      (s) => s.includes('expired'),
      'the expiry was never announced',
    );
    await mailArrives(emailOf(merchant), '[TEST] Refund expired unclaimed: 1 BUSD', second);
    await inbox.waitFor(
      (m) => m.to.includes(shopper) && m.text.includes(second) && m.subject.includes('expired unclaimed'),
      { timeoutMs: 30_000 },
    );
    // Expired: it takes no address any more.
    const late = await simulateRefund(merchant, second, { outcome: 'claimed', refund_address: customer });
    expect(late.status).toBe(409);
  });

  it("numbers a payment's events in order across its life: created, updated by a refund, reversed; a redelivery keeps its id", async () => {
    const merchant = await service.createMerchant();
    const order = await shopOrder(merchant, '4.00');
    const rpc = chain.publicClient.request as (args: {
      method: string;
      params: unknown[];
    }) => Promise<unknown>;
    const base = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
    const snapshot = await rpc({ method: 'evm_snapshot', params: [] });
    expect((await simulate(merchant, order.sessionId, { outcome: 'paid' })).status).toBe(200);
    const payment = await paymentWith(merchant, order.productId, () => true);
    const asked = await service.request('POST', `/api/v1/resolved_payments/${payment.id}/refunds`, {
      headers: merchant.headers,
      json: { reason: 'One cup less', amount: '1' },
    });
    expect(asked.status, asked.text).toBe(201);
    const refundId = asked.body.refund.id as string;
    const customer = chain.deployment.shoppers[1]!.address;
    expect(
      (await simulateRefund(merchant, refundId, { outcome: 'claimed', refund_address: customer })).status,
    ).toBe(200);
    expect((await simulateRefund(merchant, refundId, { outcome: 'paid' })).status).toBe(200);
    await waitFor(
      async () =>
        hooks('resolved_payment.updated', payment.id).map((h) => JSON.parse(h.body).payment.refunded_amount),
      (amounts) => amounts.includes('1'),
      'the refunded amount was never announced',
    );
    // The payment's block, and every one after it, taken off the chain by a longer one without them.
    const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
    await rpc({ method: 'evm_revert', params: [snapshot] });
    await chain.mine(Number(head - base) + 1);
    await hookArrives('resolved_payment.reversed', payment.id);
    const ofPayment = receiver.received.filter(
      (h) =>
        String(h.headers['x-webhook-event']).startsWith('resolved_payment.') && h.body.includes(payment.id),
    );
    const events = ofPayment.map((h) => ({
      event: h.headers['x-webhook-event'],
      id: h.headers['x-event-id'],
      sequence: Number(h.headers['x-event-sequence']),
    }));
    events.sort((a, b) => a.sequence - b.sequence);
    expect(events[0]).toMatchObject({ event: 'resolved_payment.created', sequence: 1 });
    expect(events.at(-1)!.event).toBe('resolved_payment.reversed');
    expect(events.some((e) => e.event === 'resolved_payment.updated')).toBe(true);
    // Each event its own id and a sequence above the one before.
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    expect(new Set(events.map((e) => e.sequence)).size).toBe(events.length);
    // The refund is a subject of its own: its events count from 1 on their own.
    const ofRefund = hooks('refund.updated', refundId).map((h) => Number(h.headers['x-event-sequence']));
    expect(Math.min(...ofRefund)).toBe(1);
    expect(new Set(ofRefund).size).toBe(ofRefund.length);
    // A redelivery of the created event carries the same id and sequence, so a shop can tell it is not new.
    const deliveries = await service.request(
      'GET',
      `/api/v1/products/${order.productId}/webhook_deliveries`,
      {
        headers: merchant.headers,
      },
    );
    const created = (
      deliveries.body.webhook_deliveries as Array<{ id: string; event_type: string; event_id: string }>
    ).find((d) => d.event_type === 'resolved_payment.created')!;
    const before = receiver.received.length;
    const again = await service.request('POST', `/api/v1/webhook_deliveries/${created.id}/redeliver`, {
      headers: merchant.headers,
    });
    expect(again.status, again.text).toBe(200);
    const resent = await waitFor(
      async () => receiver.received.slice(before).filter((h) => h.headers['x-event-id'] === created.event_id),
      (l) => l.length > 0,
      'the redelivery never arrived',
    );
    expect(resent[0]!.headers['x-event-sequence']).toBe('1');
  });

  it('mines blocks on the dev chain', async () => {
    const merchant = await service.createMerchant();
    const before = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
    const res = await service.request('POST', '/sandbox/chains/97/mine', {
      headers: merchant.headers,
      json: { blocks: 5 },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      chain_id: 97,
      from_block: (before + 1n).toString(),
      to_block: (before + 5n).toString(),
    });
    expect(await chain.publicClient.getBlockNumber({ cacheTime: 0 })).toBe(before + 5n);
    const unknown = await service.request('POST', '/sandbox/chains/56/mine', {
      headers: merchant.headers,
      json: { blocks: 5 },
    });
    expect(unknown.status).toBe(404);
  });

  it("answers another wallet's session and refund with 404, and needs the key and wallet", async () => {
    const owner = await service.createMerchant();
    const other = await service.createMerchant();
    const order = await shopOrder(owner, '1.00');
    expect((await simulate(other, order.sessionId, { outcome: 'paid' })).status).toBe(404);
    const anonymous = await service.request(
      'POST',
      `/sandbox/checkout/sessions/${order.sessionId}/simulate`,
      {
        json: { outcome: 'paid' },
      },
    );
    expect(anonymous.status).toBe(401);
    const wrongBody = await simulate(owner, order.sessionId, { outcome: 'paid', percent: 2 });
    expect(wrongBody.status).toBeGreaterThanOrEqual(400);
    expect(wrongBody.status).toBeLessThan(500);
    expect((await sessionOf(order.sessionId)).status).toBe('awaiting_payment');
    expect(
      (
        await service.request('POST', '/sandbox/refunds/00000000-0000-4000-8000-000000000000/simulate', {
          headers: owner.headers,
          json: { outcome: 'expired' },
        })
      ).status,
    ).toBe(404);
  });
});
