/**
 * Money that does not match: every transfer into a receiving address that no checkout takes is recorded
 * once as an unmatched transfer, shown to the QR page it arrived near, listed for the merchant, announced by
 * a signed webhook and an e-mail (grouped with the others to the same recipient, at most one an interval),
 * and settled by the merchant (attached or dismissed). Real server and
 * worker, real Temporal, a local EVM chain, an SMTP inbox and a webhook receiver.
 */
import { createHmac } from 'node:crypto';
import { type ResolvedPayment, UnmatchedTransfer } from '@checkout/core';
import type { DevInbox } from '@checkout/mail';
import type { Address, Hash } from 'viem';
import { parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestChain } from '../support/chain.ts';
import { type ChainService, startChainService } from '../support/chainService.ts';
import { databaseUnavailable } from '../support/database.ts';
import type { TestMerchant, TestService } from '../support/service.ts';
import { waitForBlockRead, waitForSession } from '../support/waitFor.ts';
import type { WebhookReceiver } from '../support/webhookReceiver.ts';

describe.skipIf(databaseUnavailable())('unmatched transfers', () => {
  let chain: TestChain;
  let service: TestService;
  let inbox: DevInbox;
  let receiver: WebhookReceiver;
  let busd: Address;

  let setup: ChainService | undefined;
  beforeAll(async () => {
    setup = await startChainService({
      CHECKOUT_GRACE_MINUTES: '5',
      CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS: '1',
      CHECKOUT_SCAN_INTERVAL_MS: '100',
      UNMATCHED_EMAIL_INTERVAL_SECONDS: '8',
    });
    ({ chain, service, inbox, receiver, busd } = setup);
  });
  afterAll(() => setup?.stop());

  /** A merchant of its own per test: its wallet's transfers are its test's alone. */
  const shop = async (openAmount = false) => {
    const merchant = await service.createMerchant();
    const res = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Coffee',
          email: `merchant-${merchant.merchantId}@example.com`,
          active: true,
          open_amount: openAmount,
          send_webhook: true,
          webhook_url: receiver.url,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd },
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    return { merchant, product: res.body.product as { id: string; slug: string } };
  };

  const expectedPayment = async (merchant: TestMerchant, productId: string, dollarAmount: string) => {
    const res = await service.request('POST', `/api/v1/products/${productId}/expected_payments`, {
      headers: merchant.headers,
      json: { dollar_amount: dollarAmount },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.expected_payment.id as string;
  };

  type Session = {
    id: string;
    status: string;
    tx_hash: string | null;
    expected_token_amount: string;
    reference: string;
    secret: string;
  };
  const open = async (slug: string, body: Record<string, unknown>): Promise<Session> => {
    const res = await service.request('POST', `/api/v1/checkout/${slug}/sessions`, {
      json: { email: 'shopper@example.com', token_address: busd, ...body },
    });
    expect(res.status, res.text).toBe(200);
    return { ...res.body.session, secret: res.body.client_secret };
  };
  const getSession = async (id: string) =>
    (await service.request('GET', `/api/v1/checkout/sessions/${id}`)).body.session;
  const submit = (sessionId: string, txHash: Hash) =>
    service.request('POST', `/api/v1/checkout/sessions/${sessionId}/transactions`, {
      json: { tx_hash: txHash },
    });
  const shopper = (index: number) => chain.deployment.shoppers[index]!.address;
  /** A transfer of shopper `index`, carrying a session's `reference` when given. */
  const pay = (index: number, to: string, amount: bigint, reference?: string) =>
    chain.transfer(index, busd, to as Address, amount, reference ? { reference } : {});

  /** The merchant's unmatched transfers, once `done` holds for them (bounded). */
  const unmatched = async (
    merchant: TestMerchant,
    done: (list: UnmatchedTransfer[]) => boolean,
    query = '',
  ): Promise<UnmatchedTransfer[]> => {
    const deadline = Date.now() + 45_000;
    for (;;) {
      const res = await service.request('GET', `/api/v1/unmatched_transfers${query}`, {
        headers: merchant.headers,
      });
      expect(res.status, res.text).toBe(200);
      const list = (res.body.unmatched_transfers as unknown[]).map((u) => UnmatchedTransfer.parse(u));
      if (done(list)) return list;
      if (Date.now() > deadline) throw new Error(`unmatched transfers stayed ${res.text}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const hooksFor = (id: string) =>
    receiver.received.filter(
      (h) => h.headers['x-webhook-event'] === 'unmatched_transfer.created' && h.body.includes(id),
    );

  it('records a rounded QR amount once, shows it on the QR page, and tells the merchant by webhook and e-mail', async () => {
    const { merchant, product } = await shop(true);
    const qr = await open(product.slug, { dollar_amount: '7.00', sender_address: null });
    expect(qr.expected_token_amount).not.toBe('7');
    // The phone's wallet rounds the amount to 7.00.
    const tx = await pay(0, merchant.address, parseUnits('7', 18));

    const [found] = await unmatched(merchant, (l) => l.length === 1);
    expect(found).toMatchObject({
      status: 'open',
      kind: 'wrong_amount',
      amount: '7',
      tx_hash: tx.toLowerCase(),
      sender_address: shopper(0),
      product_id: product.id,
      token: { symbol: 'BUSD' },
    });
    expect(found!.near_sessions.map((s) => s.session_id)).toEqual([qr.id]);
    // The QR page says so at once, and the session still waits for its exact amount.
    expect(await getSession(qr.id)).toMatchObject({
      status: 'awaiting_payment',
      unmatched_transfers: [{ tx_hash: tx.toLowerCase(), amount: '7', token_symbol: 'BUSD' }],
    });

    // A signed webhook and one e-mail, and never a second.
    const deadline = Date.now() + 30_000;
    while (hooksFor(found!.id).length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const [hook] = hooksFor(found!.id);
    const secret = (await service.request('GET', '/api/v1/webhook_secret', { headers: merchant.headers }))
      .body.webhook_secret.secret;
    const sig = /^t=(\d+), s=([0-9a-f]{64})$/.exec(String(hook!.headers['x-sig']));
    expect(createHmac('sha256', secret).update(`${sig![1]}.${hook!.body}`).digest('hex')).toBe(sig![2]);
    expect(JSON.parse(hook!.body)).toMatchObject({
      event: 'unmatched_transfer.created',
      payload: { unmatched_transfer: { id: found!.id, sender_address: shopper(0), amount: '7' } },
    });
    const to = `merchant-${merchant.merchantId}@example.com`;
    const notice = await inbox.waitFor((m) => m.to.includes(to), { timeoutMs: 30_000 });
    expect(notice.subject).toContain('Unmatched transfer (wrong_amount): 7 BUSD');
    expect(notice.text).toContain(qr.id);
    // Ticks later (the watcher has read a block mined after), nothing more.
    await chain.mine(1);
    await waitForBlockRead(service.deps.db.kysely, 97, await chain.publicClient.getBlockNumber());
    expect((await inbox.list()).filter((m) => m.to.includes(to))).toHaveLength(1);
    expect(hooksFor(found!.id)).toHaveLength(1);
    expect(await unmatched(merchant, () => true)).toHaveLength(1);
    // A hash of it submitted later pays nothing.
    expect((await submit(qr.id, tx)).status).toBe(422);
  });

  it('records a second payment of a paid order as its duplicate', async () => {
    const { merchant, product } = await shop();
    const order = await open(product.slug, {
      expected_payment_id: await expectedPayment(merchant, product.id, '3.00'),
      sender_address: shopper(1),
    });
    expect((await submit(order.id, await pay(1, merchant.address, parseUnits('3', 18)))).status).toBe(200);
    const paid = await waitForSession(service, order.id, ['resolved']);
    const again = await pay(1, merchant.address, parseUnits('3', 18));
    const [duplicate] = await unmatched(merchant, (l) => l.length === 1);
    expect(duplicate).toMatchObject({
      kind: 'duplicate',
      tx_hash: again.toLowerCase(),
      resolved_payment_id: paid.resolved_payment_id,
    });
    expect(await getSession(order.id)).toMatchObject({ status: 'resolved', tx_hash: paid.tx_hash });

    // The payment is flagged paid twice, and its webhook says so; dismissed, the flag clears, said again.
    const updates = () =>
      receiver.received
        .filter(
          (h) =>
            h.headers['x-webhook-event'] === 'resolved_payment.updated' &&
            h.body.includes(paid.resolved_payment_id!),
        )
        .map(
          (h) => JSON.parse(h.body).payment as { exception_status: string | null; refunded_amount: string },
        );
    const updated = async (count: number) => {
      const deadline = Date.now() + 30_000;
      while (updates().length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      return updates();
    };
    expect((await updated(1))[0]).toMatchObject({ exception_status: 'paid_twice', refunded_amount: '0' });
    const dismissed = await service.request('POST', `/api/v1/unmatched_transfers/${duplicate!.id}/dismiss`, {
      headers: merchant.headers,
      json: { note: 'Refunded by hand' },
    });
    expect(dismissed.status, dismissed.text).toBe(200);
    const [, cleared, ...more] = await updated(2);
    expect(cleared).toMatchObject({ exception_status: null });
    expect(more).toEqual([]);
  });

  it('records a transfer below the notice threshold without a webhook or an e-mail of its own', async () => {
    const { merchant, product } = await shop();
    // An order open on the address, so that the chain's watcher reads it.
    await open(product.slug, {
      expected_payment_id: await expectedPayment(merchant, product.id, '1.50'),
      sender_address: shopper(3),
    });
    const dust = await pay(3, merchant.address, parseUnits('0.5', 18));
    const [row] = await unmatched(merchant, (l) => l.some((u) => u.tx_hash === dust.toLowerCase()));
    // Its announcements would be queued in the transaction that recorded it: there are none.
    const db = service.deps.db.kysely;
    const hooks = await db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('subject_id', '=', row!.id)
      .execute();
    const calls = await db
      .selectFrom('workflow_calls')
      .select('id')
      .where('workflow_id', 'like', `%${row!.id}%`)
      .execute();
    expect({ hooks, calls }).toEqual({ hooks: [], calls: [] });
  });

  it("groups the merchant's e-mails about unmatched transfers: each listed once, at most one e-mail an interval", async () => {
    const { merchant, product } = await shop();
    // An order open on the address, so that the chain's watcher reads it.
    await open(product.slug, {
      expected_payment_id: await expectedPayment(merchant, product.id, '50.00'),
      sender_address: shopper(0),
    });
    const amounts = ['2.11', '3.12', '4.13', '5.14', '6.15'];
    const start = Date.now();
    for (const [index, amount] of amounts.entries())
      await pay(index, merchant.address, parseUnits(amount, 18));
    const rows = await unmatched(merchant, (l) => l.length === amounts.length);
    const to = `merchant-${merchant.merchantId}@example.com`;
    const mails = async () => (await inbox.list()).filter((m) => m.to.includes(to));
    const deadline = Date.now() + 45_000;
    while (Date.now() < deadline) {
      const texts = (await mails()).map((m) => m.text);
      if (rows.every((r) => texts.some((t) => t.includes(r.id)))) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    // The interval (8 s here) holds the rest until one e-mail lists them all; each transfer is told once.
    const told = await mails();
    expect(told.length).toBeGreaterThanOrEqual(1);
    expect(told.length).toBeLessThanOrEqual(2);
    for (const row of rows) expect(told.filter((m) => m.text.includes(row.id))).toHaveLength(1);
    const grouped = told.find((m) => /^\[TEST\] \d+ unmatched transfers: /.test(m.subject));
    expect(grouped, told.map((m) => m.subject).join('\n')).toBeDefined();
    // Two more after that e-mail: told together, not before the interval since the last one has passed.
    await pay(1, merchant.address, parseUnits('7.16', 18));
    await pay(2, merchant.address, parseUnits('8.17', 18));
    const later = (await unmatched(merchant, (l) => l.length === amounts.length + 2)).filter(
      (u) => !rows.some((r) => r.id === u.id),
    );
    const next = Date.now() + 45_000;
    while ((await mails()).length === told.length && Date.now() < next)
      await new Promise((r) => setTimeout(r, 200));
    const [last, ...more] = (await mails()).slice(told.length);
    expect(more).toEqual([]);
    expect(Date.now() - start).toBeGreaterThanOrEqual(8_000);
    for (const row of later) expect(last?.text).toContain(row.id);
    expect(last?.subject).toMatch(/^\[TEST\] 2 unmatched transfers: /);
    rows.push(...later);

    // Every transfer still has its own webhook.
    const hooked = Date.now() + 30_000;
    while (rows.some((r) => hooksFor(r.id).length === 0) && Date.now() < hooked)
      await new Promise((r) => setTimeout(r, 100));
    for (const row of rows) expect(hooksFor(row.id)).toHaveLength(1);
  });

  it('records a payment to a closed attempt, and the merchant attaches it to the order it was meant for', async () => {
    const { merchant, product } = await shop(true);
    const attempt = await open(product.slug, { dollar_amount: '5.00', sender_address: shopper(2) });
    const closed = await service.request('POST', `/api/v1/checkout/sessions/${attempt.id}/close`, {
      headers: { 'X-Client-Secret': attempt.secret },
    });
    expect(closed.status, closed.text).toBe(200);
    // Paid anyway, from the wallet that opened it: the closed attempt takes nothing, and names it.
    const tx = await pay(2, merchant.address, parseUnits('5', 18), attempt.reference);
    const [stray] = await unmatched(merchant, (l) => l.length === 1);
    expect(stray).toMatchObject({ kind: 'closed_attempt', tx_hash: tx.toLowerCase() });
    expect(stray!.near_sessions.map((s) => s.session_id)).toEqual([attempt.id]);
    expect(await getSession(attempt.id)).toMatchObject({ status: 'closed', tx_hash: null });

    // The merchant's own order for it, opened for another payer: attached, its checkout records it.
    const expectedId = await expectedPayment(merchant, product.id, '5.00');
    const order = await open(product.slug, { expected_payment_id: expectedId, sender_address: shopper(3) });
    const attached = await service.request('POST', `/api/v1/unmatched_transfers/${stray!.id}/attach`, {
      headers: merchant.headers,
      json: { expected_payment_id: expectedId },
    });
    expect(attached.status, attached.text).toBe(200);
    expect(attached.body.unmatched_transfer).toMatchObject({
      status: 'attached',
      expected_payment_id: expectedId,
    });
    const done = await waitForSession(service, order.id, ['resolved']);
    expect(done.tx_hash).toBe(tx.toLowerCase());
    const again = await service.request('POST', `/api/v1/unmatched_transfers/${stray!.id}/attach`, {
      headers: merchant.headers,
      json: { expected_payment_id: expectedId },
    });
    expect(again.status).toBe(409);
    const log = await service.request('GET', '/api/v1/audit_log', { headers: merchant.headers });
    expect(log.body.audit_events).toMatchObject([
      {
        action: 'unmatched_transfer.attached',
        subject_id: stray!.id,
        detail: { expected_payment_id: expectedId },
        actor: { kind: 'api_key' },
      },
    ]);
  });

  it("names the closed attempt a stray transfer is exactly the amount of, not the payer's paid order", async () => {
    const { merchant, product } = await shop(true);
    const attempt = await open(product.slug, { dollar_amount: '12.50', sender_address: shopper(4) });
    const closed = await service.request('POST', `/api/v1/checkout/sessions/${attempt.id}/close`, {
      headers: { 'X-Client-Secret': attempt.secret },
    });
    expect(closed.status, closed.text).toBe(200);
    const order = await open(product.slug, { dollar_amount: '13.00', sender_address: shopper(4) });
    await pay(4, merchant.address, parseUnits('13', 18), order.reference);
    const paid = await waitForSession(service, order.id, ['resolved']);
    // Another open order keeps the wallet watched.
    await open(product.slug, { dollar_amount: '40.00', sender_address: shopper(3) });

    // The payer sends 12.50 again, without a reference: the closed attempt's amount exactly.
    const stray = await pay(4, merchant.address, parseUnits('12.5', 18));
    const [found] = await unmatched(merchant, (l) => l.some((u) => u.tx_hash === stray.toLowerCase()));
    expect(found).toMatchObject({ kind: 'closed_attempt', resolved_payment_id: null });
    expect(found!.near_sessions.map((s) => s.session_id)).toEqual([attempt.id]);
    // The paid order is not flagged paid twice, and no webhook says so.
    const payments = await service.request('GET', `/api/v1/products/${product.id}/resolved_payments`, {
      headers: merchant.headers,
    });
    const payment = (payments.body.resolved_payments as ResolvedPayment[]).find(
      (p) => p.id === paid.resolved_payment_id,
    );
    expect(payment?.payment.exception_status).toBeNull();
    await chain.mine(1);
    await waitForBlockRead(service.deps.db.kysely, 97, await chain.publicClient.getBlockNumber());
    const flagged = receiver.received.filter(
      (h) =>
        h.headers['x-webhook-event'] === 'resolved_payment.updated' &&
        h.body.includes(paid.resolved_payment_id!),
    );
    expect(flagged).toEqual([]);
  });

  it('tops up a resolved payment with a transfer of its payer, and dismisses another with a note', async () => {
    const { merchant, product } = await shop();
    const order = await open(product.slug, {
      expected_payment_id: await expectedPayment(merchant, product.id, '10.00'),
      sender_address: shopper(4),
    });
    const nine = await pay(4, merchant.address, parseUnits('9', 18), order.reference);
    expect((await submit(order.id, nine)).status).toBe(200);
    const short = await waitForSession(service, order.id, ['resolved']);
    const list = async () =>
      (
        await service.request('GET', `/api/v1/products/${product.id}/resolved_payments`, {
          headers: merchant.headers,
        })
      ).body.resolved_payments as ResolvedPayment[];
    expect((await list())[0]!.payment).toMatchObject({
      exception_status: 'paid_partially',
      amount_difference: '-10.0',
    });

    const rest = await pay(4, merchant.address, parseUnits('1', 18));
    const [found] = await unmatched(merchant, (l) => l.length === 1);
    expect(found).toMatchObject({ tx_hash: rest.toLowerCase(), status: 'open' });
    const topUp = await service.request('POST', `/api/v1/unmatched_transfers/${found!.id}/attach`, {
      headers: merchant.headers,
      json: { resolved_payment_id: short.resolved_payment_id },
    });
    expect(topUp.status, topUp.text).toBe(200);
    expect((await list())[0]!.payment).toMatchObject({
      received_token_amount: '10',
      amount_difference: '0.0',
      exception_status: null,
    });
    const deadline = Date.now() + 30_000;
    const updated = () =>
      receiver.received.filter(
        (h) =>
          h.headers['x-webhook-event'] === 'resolved_payment.updated' &&
          h.body.includes(short.resolved_payment_id!),
      );
    while (updated().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(JSON.parse(updated()[0]!.body).payment).toMatchObject({ received_token_amount: '10' });

    const gift = await pay(4, merchant.address, parseUnits('42', 18));
    const listed = await unmatched(
      merchant,
      (l) => l.some((u) => u.tx_hash === gift.toLowerCase()),
      '?status=open',
    );
    const tip = listed.find((u) => u.tx_hash === gift.toLowerCase())!;
    const dismissed = await service.request('POST', `/api/v1/unmatched_transfers/${tip.id}/dismiss`, {
      headers: merchant.headers,
      json: { note: 'A tip, kept with thanks' },
    });
    expect(dismissed.body.unmatched_transfer).toMatchObject({
      status: 'dismissed',
      note: 'A tip, kept with thanks',
    });
    expect(await unmatched(merchant, () => true, '?status=open')).toEqual([]);
    expect(
      (
        await service.request('POST', `/api/v1/unmatched_transfers/${tip.id}/dismiss`, {
          headers: merchant.headers,
          json: { note: 'again' },
        })
      ).status,
    ).toBe(409);
    const log = await service.request('GET', '/api/v1/audit_log', { headers: merchant.headers });
    expect(
      log.body.audit_events.map((e: { action: string; subject_id: string }) => [e.action, e.subject_id]),
    ).toEqual([
      ['unmatched_transfer.dismissed', tip.id],
      ['unmatched_transfer.attached', found!.id],
    ]);
    expect(log.body.audit_events[0].detail).toEqual({ note: 'A tip, kept with thanks' });
  });
});
