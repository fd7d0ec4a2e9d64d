/**
 * Refunds recognised on the chain: the merchant's wallet pays a refund of a resolved payment; the chain's
 * watcher recognises the exact transfer out of the receiving address to the refund address, the refund goes
 * `sent` then `confirmed` after the chain's confirmations, exactly once, the payment's refunded amount grows
 * and its webhook says so, and no transfer of the refund becomes an unmatched transfer; a transfer of another
 * amount is recorded against the refund (a part payment with what is still due, completed by the remainder;
 * an overpayment named), shown on the pay page and told to the merchant; and an unmatched transfer refunded through the API is paid from the wallet as its
 * payment request asks, confirmed, and stays `refunded`. Real server and worker, real Temporal, a local EVM
 * chain, an SMTP inbox and a webhook receiver.
 */
import { PaymentTimelineResponse } from '@checkout/core';
import { createApiKey, findRefundById, findResolvedPayment } from '@checkout/db';
import type { DevInbox } from '@checkout/mail';
import { requestRefund } from '@checkout/workflows';
import type { Address, Hash } from 'viem';
import { parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestChain } from '../support/chain.ts';
import { type ChainService, startChainService } from '../support/chainService.ts';
import { databaseUnavailable } from '../support/database.ts';
import { randomAddress, type TestService } from '../support/service.ts';
import { waitFor, waitForBlockRead } from '../support/waitFor.ts';
import type { WebhookReceiver } from '../support/webhookReceiver.ts';

/** The shopper account of the dev chain that is the merchant's receiving wallet here (its key pays). */
const walletIndex = 4;

describe.skipIf(databaseUnavailable())('refunds recognised on the chain', () => {
  let chain: TestChain;
  let service: TestService;
  let inbox: DevInbox;
  let receiver: WebhookReceiver;
  let busd: Address;

  let setup: ChainService | undefined;
  beforeAll(async () => {
    setup = await startChainService({
      CONFIRMATIONS_BINANCE_SMART_CHAIN_TESTNET: '3',
      CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS: '1',
      CHECKOUT_SCAN_INTERVAL_MS: '100',
      RAMP_RECONCILE_INTERVAL_MS: '500',
    });
    ({ chain, service, inbox, receiver, busd } = setup);
  }, 180_000);
  afterAll(() => setup?.stop());

  /**
   * A merchant whose receiving wallet is shopper `walletOf` (its key pays refunds), its product sending
   * webhooks to `<receiver>/<hook>`, and a 10 BUSD checkout of it opened by shopper `payer`.
   */
  const openCheckout = async (input: {
    walletOf: number;
    name: string;
    hook: string;
    payer: number;
    email: string;
  }) => {
    const db = service.deps.db.kysely;
    const wallet = chain.deployment.shoppers[input.walletOf]!.address;
    const merchant = await createApiKey(db, { address: wallet });
    const headers = { authorization: `Bearer ${merchant.key}`, 'x-address': merchant.address };
    const created = await service.request('POST', '/api/v1/products', {
      headers,
      json: {
        product: {
          name: input.name,
          email: `merchant-${merchant.merchantId}@example.com`,
          active: true,
          send_webhook: true,
          webhook_url: `${receiver.url}/${input.hook}`,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd },
        },
      },
    });
    expect(created.status, created.text).toBe(200);
    const product = created.body.product as { id: string; slug: string };
    const expected = await service.request('POST', `/api/v1/products/${product.id}/expected_payments`, {
      headers,
      json: { dollar_amount: '10.00' },
    });
    const opened = await service.request('POST', `/api/v1/checkout/${product.slug}/sessions`, {
      json: {
        email: input.email,
        expected_payment_id: expected.body.expected_payment.id,
        sender_address: chain.deployment.shoppers[input.payer]!.address,
        token_address: busd,
      },
    });
    expect(opened.status, opened.text).toBe(200);
    return { db, wallet, merchant, headers, sessionId: opened.body.session.id as string };
  };

  it('recognises the exact transfer once: sent, then confirmed, and nothing becomes unmatched', async () => {
    // A paid checkout: 10 BUSD from shopper 0 into the merchant's wallet.
    const { db, wallet, headers, merchant, sessionId } = await openCheckout({
      walletOf: walletIndex,
      name: 'Filter papers',
      hook: 'shop',
      payer: 0,
      email: 'ana@example.com',
    });
    const paid: Hash = await chain.transfer(0, busd, wallet, parseUnits('10', 18));
    await chain.mine(3);
    await service.request('POST', `/api/v1/checkout/sessions/${sessionId}/transactions`, {
      json: { tx_hash: paid },
    });
    const session = await waitFor(
      async () => (await service.request('GET', `/api/v1/checkout/sessions/${sessionId}`)).body.session,
      (s) => s.status === 'resolved',
      'the checkout never resolved',
    );
    const paymentId = session.resolved_payment_id as string;

    // A refund of 7 BUSD of it, its address given by the merchant: ready to pay, its workflow started.
    const customer = randomAddress() as Address;
    const payment = await findResolvedPayment(db, paymentId);
    const refund = await requestRefund(
      db,
      {
        secrets: service.deps.secrets,
        publicBaseUrl: service.url,
        chains: service.deps.chains,
        claimDays: 14,
      },
      {
        scope: { merchantId: merchant.merchantId, addressId: merchant.addressId },
        subject: { resolvedPayment: payment! },
        body: {
          amount: '7',
          reason: 'One box arrived damaged',
          refund_address: customer,
          email: 'ana@example.com',
        },
      },
    );
    expect(refund.status).toBe('ready_to_pay');
    await inbox.waitFor((m) => m.to.includes('ana@example.com') && m.subject.includes('address received'), {
      timeoutMs: 30_000,
    });

    // The exact amount is recognised: sent, then confirmed once the chain has 3 confirmations.
    const exact = await chain.transfer(walletIndex, busd, customer, parseUnits('7', 18));
    const sent = await waitFor(
      () => findRefundById(db, refund.id),
      (r) => r?.status !== 'ready_to_pay',
      'the refund was never recognised',
    );
    expect(sent).toMatchObject({ status: 'sent', tx_hash: exact.toLowerCase() });
    expect(sent?.sent_at).not.toBeNull();
    await chain.mine(3);
    const confirmed = await waitFor(
      () => findRefundById(db, refund.id),
      (r) => r?.status === 'confirmed',
      'the refund was never confirmed',
    );
    expect(confirmed?.confirmed_at).not.toBeNull();
    expect((await findResolvedPayment(db, paymentId))?.refunded_amount).toBe(parseUnits('7', 18).toString());

    // The payment's webhook: its refund gave back part of it. The refund's own: sent and confirmed, once each.
    const updated = await waitFor(
      async () =>
        receiver.received
          .filter((h) => h.path.endsWith('/shop'))
          .map(
            (h) => JSON.parse(h.body) as { event?: string; payment?: { exception_status: string | null } },
          ),
      (bodies) =>
        bodies.some((b) => b.event === undefined && b.payment?.exception_status === 'partially_refunded'),
      'no resolved_payment.updated webhook',
    );
    // Ticks later (the watcher has read a block mined after), nothing more.
    await chain.mine(1);
    await waitForBlockRead(db, 97, await chain.publicClient.getBlockNumber());
    const hooks = receiver.received.filter((h) => h.path.endsWith('/shop')).map((h) => JSON.parse(h.body));
    expect(hooks.filter((b) => b.payment?.exception_status === 'partially_refunded')).toHaveLength(1);
    const refundHooks = hooks.filter((b) => b.event === 'refund.updated');
    expect(refundHooks.map((b) => b.payload.refund.status).sort()).toEqual([
      'confirmed',
      'ready_to_pay',
      'sent',
    ]);
    expect(updated.length).toBeGreaterThan(0);
    expect(await findRefundById(db, refund.id)).toMatchObject({
      status: 'confirmed',
      tx_hash: exact.toLowerCase(),
    });

    // Neither transfer out of the wallet is an unmatched transfer, nor a recorded transfer into it.
    const strays = await db
      .selectFrom('unmatched_transfers')
      .select('tx_hash')
      .where('merchant_id', '=', merchant.merchantId)
      .execute();
    expect(strays).toEqual([]);
    const recorded = await db
      .selectFrom('chain_transfers')
      .select('tx_hash')
      .where('tx_hash', '=', exact.toLowerCase())
      .execute();
    expect(recorded).toEqual([]);

    // The customer's e-mails: the address noted, sent, confirmed; the merchant's confirmation.
    await inbox.waitFor((m) => m.to.includes('ana@example.com') && m.subject.includes('has arrived'), {
      timeoutMs: 30_000,
    });
    const mails = (await inbox.list()).filter((m) => m.subject.toLowerCase().includes('refund'));
    const ids = mails.map((m) => m.messageId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(mails.some((m) => m.subject === '[TEST] Refund confirmed: 7 BUSD · Filter papers')).toBe(true);
    // Each comes from the shop, through the service: the customer knows who is refunding them.
    for (const mail of mails.filter((m) => m.to.includes('ana@example.com'))) {
      const from = mail.headers.find((h) => h.key === 'from')?.value;
      expect(from).toMatch(/^"?Filter papers via Stable Checkout"? <payments@localhost>$/);
    }

    // The payment's timeline holds the refund's steps, its three webhooks and its e-mails (claims done once sent).
    const mailed = ['ready_to_pay:customer', 'sent:customer', 'confirmed:customer', 'confirmed:merchant'];
    const timeline = await waitFor(
      async () =>
        PaymentTimelineResponse.parse(
          (await service.request('GET', `/api/v1/resolved_payments/${paymentId}/timeline`, { headers })).body,
        ).timeline,
      (entries) =>
        mailed.every((k) =>
          entries.some(
            (e) => e.type === 'email' && `${e.kind.slice(7)}:${e.recipient}` === k && e.status === 'sent',
          ),
        ) &&
        entries.filter((e) => e.type === 'webhook_attempt' && e.event_type === 'refund.updated').length === 3,
      "the refund's e-mails in the payment's timeline",
    );
    const steps = timeline.filter((e) => e.type.startsWith('refund_'));
    expect(steps.map((e) => e.type)).toEqual(['refund_requested', 'refund_paid', 'refund_confirmed']);
    expect(steps[1]).toMatchObject({
      refund_id: refund.id,
      tx_hash: exact.toLowerCase(),
      amount: '7',
      symbol: 'BUSD',
    });
  }, 240_000);

  it('records a refund paid with another amount: a part payment leaves the rest due, the remainder completes it, more is named', async () => {
    const walletOf = 2;
    const { db, wallet, headers, merchant, sessionId } = await openCheckout({
      walletOf,
      name: 'Milk jug',
      hook: 'jug',
      payer: 0,
      email: 'cy@example.com',
    });
    const paid: Hash = await chain.transfer(0, busd, wallet, parseUnits('10', 18));
    await chain.mine(3);
    await service.request('POST', `/api/v1/checkout/sessions/${sessionId}/transactions`, {
      json: { tx_hash: paid },
    });
    const session = await waitFor(
      async () => (await service.request('GET', `/api/v1/checkout/sessions/${sessionId}`)).body.session,
      (s) => s.status === 'resolved',
      'the checkout never resolved',
    );
    const paymentId = session.resolved_payment_id as string;
    const customer = randomAddress() as Address;
    const ask = async (amount: string) => {
      const asked = await service.request('POST', `/api/v1/resolved_payments/${paymentId}/refunds`, {
        headers: { ...headers, 'idempotency-key': `refund-${paymentId}-${amount}` },
        json: { amount, reason: 'A part of the order was missing', refund_address: customer },
      });
      expect(asked.status, asked.text).toBe(201);
      return asked.body.refund as { id: string; pay_url: string };
    };
    const read = async (id: string) =>
      (await service.request('GET', `/api/v1/refunds/${id}`, { headers })).body.refund;
    const mailTo = `merchant-${merchant.merchantId}@example.com`;

    // 2.70 of a 2.77 refund: a part payment, 0.07 still due, asked by the pay page; the merchant is told.
    const part = await ask('2.77');
    const first = await chain.transfer(walletOf, busd, customer, parseUnits('2.7', 18));
    const partly = await waitFor(
      () => read(part.id),
      (r) => r.paid_amount !== '0',
      'the part payment was never recorded',
    );
    expect(partly).toMatchObject({
      status: 'ready_to_pay',
      paid_amount: '2.7',
      amount_due: '0.07',
      overpaid_amount: null,
      tx_hash: null,
    });
    expect(partly.payment_request.uri).toContain(`uint256=${parseUnits('0.07', 18)}`);
    const payToken = part.pay_url.split('/').pop();
    const page = await service.request('GET', `/api/v1/refund_payments/${payToken}`);
    expect(page.body.refund_payment).toMatchObject({ paid_amount: '2.7', amount_due: '0.07' });
    expect(page.body.refund_payment.part_payments).toEqual([
      { tx_hash: first.toLowerCase(), amount: '2.7', seen_at: expect.any(String) },
    ]);
    const notice = await inbox.waitFor(
      (m) => m.to.includes(mailTo) && m.subject.startsWith('[TEST] Refund paid in part: 2.77 BUSD'),
      { timeoutMs: 30_000 },
    );
    expect(notice.text).toMatch(/Still due: +0\.07 BUSD/);
    const partHook = await waitFor(
      async () =>
        receiver.received
          .filter((h) => h.path.endsWith('/jug'))
          .map((h) => JSON.parse(h.body))
          .filter((b) => b.event === 'refund.updated' && b.payload.refund.paid_amount === '2.7'),
      (list) => list.length > 0,
      'no refund.updated of the part payment',
    );
    expect(partHook[0].payload.refund).toMatchObject({ status: 'ready_to_pay', amount_due: '0.07' });

    // The remainder completes it: sent with the transfer that completed it, then confirmed with all it gave.
    const rest = await chain.transfer(walletOf, busd, customer, parseUnits('0.07', 18));
    const completed = await waitFor(
      () => read(part.id),
      (r) => r.status !== 'ready_to_pay',
      'the remainder never completed the refund',
    );
    expect(completed).toMatchObject({
      status: 'sent',
      tx_hash: rest.toLowerCase(),
      paid_amount: '2.77',
      amount_due: '0',
      overpaid_amount: null,
    });
    const paidPage = await service.request('GET', `/api/v1/refund_payments/${payToken}`);
    expect(paidPage.body.refund_payment.part_payments.map((p: { amount: string }) => p.amount)).toEqual([
      '2.7',
      '0.07',
    ]);
    await chain.mine(3);
    await waitFor(
      () => read(part.id),
      (r) => r.status === 'confirmed',
      'the refund was never confirmed',
    );

    // 3.70 for a 1.00 refund: paid, the 2.70 above it named, the merchant told; all 3.70 counted as given back.
    const over = await ask('1');
    await chain.transfer(walletOf, busd, customer, parseUnits('3.7', 18));
    const overpaid = await waitFor(
      () => read(over.id),
      (r) => r.status !== 'ready_to_pay',
      'the overpayment was never recognised',
    );
    expect(overpaid).toMatchObject({ status: 'sent', paid_amount: '3.7', overpaid_amount: '2.7' });
    await inbox.waitFor(
      (m) => m.to.includes(mailTo) && m.subject.startsWith('[TEST] Refund overpaid: 1 BUSD'),
      { timeoutMs: 30_000 },
    );
    await chain.mine(3);
    await waitFor(
      () => read(over.id),
      (r) => r.status === 'confirmed',
      'the refund was never confirmed',
    );
    expect((await findResolvedPayment(db, paymentId))?.refunded_amount).toBe(
      parseUnits('6.47', 18).toString(),
    );
    // Nothing more can be refunded than the payment kept: 10 received, 6.47 given back.
    const tooMuch = await service.request('POST', `/api/v1/resolved_payments/${paymentId}/refunds`, {
      headers: { ...headers, 'idempotency-key': `refund-${paymentId}-too-much` },
      json: { amount: '4', reason: 'More', refund_address: customer },
    });
    expect(tooMuch.status, tooMuch.text).toBe(422);
    // None of the three transfers out is a transfer into the wallet or an unmatched one.
    const recorded = await db
      .selectFrom('chain_transfers')
      .select('tx_hash')
      .where('tx_hash', 'in', [first.toLowerCase(), rest.toLowerCase()])
      .execute();
    expect(recorded).toEqual([]);
  }, 240_000);

  it('refunds an unmatched transfer through the API: paid from the wallet as asked, confirmed, the transfer refunded', async () => {
    // Shopper 1 opens a 10 BUSD checkout and sends 3 BUSD: no order's amount, an unmatched transfer.
    const walletOf = 3;
    const { wallet, headers } = await openCheckout({
      walletOf,
      name: 'Grinder',
      hook: 'grinder',
      payer: 1,
      email: 'bo@example.com',
    });
    const stray: Hash = await chain.transfer(1, busd, wallet, parseUnits('3', 18));
    await chain.mine(3);
    const [unmatched] = await waitFor(
      async () =>
        (await service.request('GET', '/api/v1/unmatched_transfers', { headers })).body
          .unmatched_transfers as Array<{ id: string; tx_hash: string; status: string }>,
      (rows) => rows.length > 0,
      'the transfer was never recorded as unmatched',
    );
    expect(unmatched?.tx_hash).toBe(stray.toLowerCase());

    // The merchant refunds all of it to the address the customer gave them.
    const customer = randomAddress() as Address;
    const asked = await service.request('POST', `/api/v1/unmatched_transfers/${unmatched!.id}/refunds`, {
      headers: { ...headers, 'idempotency-key': `refund-${unmatched!.id}` },
      json: { reason: 'Sent to the wrong checkout', refund_address: customer },
    });
    expect(asked.status, asked.text).toBe(201);
    const refund = asked.body.refund as {
      id: string;
      status: string;
      amount: string;
      payment_request: { transaction: { from: string; to: string; data: string; chain_id: number } };
    };
    expect(refund).toMatchObject({ status: 'ready_to_pay', amount: '3' });
    const listed = await service.request('GET', `/api/v1/unmatched_transfers/${unmatched!.id}`, { headers });
    expect(listed.body.unmatched_transfer.status).toBe('refunded');

    // The wallet sends exactly the transaction the refund asks for.
    const tx = refund.payment_request.transaction;
    expect(tx.from).toBe(wallet);
    expect(tx.to.toLowerCase()).toBe(busd.toLowerCase());
    const paid = await chain.transfer(walletOf, busd, customer, parseUnits('3', 18));
    const sent = await waitFor(
      async () => (await service.request('GET', `/api/v1/refunds/${refund.id}`, { headers })).body.refund,
      (r) => r.status !== 'ready_to_pay',
      'the refund was never recognised',
    );
    expect(sent).toMatchObject({ status: 'sent', tx_hash: paid.toLowerCase() });
    await chain.mine(3);
    await waitFor(
      async () => (await service.request('GET', `/api/v1/refunds/${refund.id}`, { headers })).body.refund,
      (r) => r.status === 'confirmed',
      'the refund was never confirmed',
    );

    // One refund.updated a status; the transfer stays refunded, and the refund's own transfer is not unmatched.
    const statuses = await waitFor(
      async () =>
        receiver.received
          .filter((h) => h.path.endsWith('/grinder'))
          .map((h) => JSON.parse(h.body))
          .filter((b) => b.event === 'refund.updated')
          .map((b) => b.payload.refund.status as string)
          .sort(),
      (list) => list.includes('confirmed'),
      'no confirmed refund.updated',
    );
    expect(statuses).toEqual(['confirmed', 'ready_to_pay', 'sent']);
    const after = await service.request('GET', '/api/v1/unmatched_transfers', { headers });
    expect(
      (after.body.unmatched_transfers as Array<{ tx_hash: string; status: string }>).map((u) => [
        u.tx_hash,
        u.status,
      ]),
    ).toEqual([[stray.toLowerCase(), 'refunded']]);
  }, 240_000);
});
