/**
 * The example merchant server's webhook handling (examples/merchant-server/handleWebhook.ts), tested as a
 * merchant tests a shop: the shop runs as its own process against the real service, worker, Temporal and a
 * dev chain, and the sandbox's outcome routes and the test events, called through the merchant SDK, make
 * each outcome happen for real. Each test asserts what the shop recorded: an order paid, underpaid, overpaid,
 * paid late, failed, paid twice, refunded, reversed (and not paid again by a redelivery of its first event), a
 * refund expired unclaimed, a transfer that fits no order, and every sample event acknowledged without
 * touching an order.
 */
import { type CheckoutClient, createCheckoutClient } from '@checkout/client';
import { productTestEvents } from '@checkout/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainService, startChainService } from '../support/chainService.ts';
import { databaseUnavailable } from '../support/database.ts';
import { type ExampleShop, exampleShopPort, startExampleShop } from '../support/exampleShop.ts';
import { waitFor } from '../support/waitFor.ts';

/** What the shop shows at `GET /records`. */
interface ShopRecords {
  orders: Record<
    string,
    {
      status: string;
      payment_id?: string;
      tx_id?: string;
      exception_status?: string | null;
      received?: string;
      refunds?: Record<string, string>;
    }
  >;
  unmatched_transfers: Record<string, string>;
  test_events: string[];
}

describe.skipIf(databaseUnavailable())("the example shop's handler, against each sandbox outcome", () => {
  let setup: ChainService | undefined;
  let shop: ExampleShop | undefined;
  let client: CheckoutClient;
  let productId: string;
  let slug: string;

  beforeAll(async () => {
    setup = await startChainService({
      CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS: '0',
      CHECKOUT_SCAN_INTERVAL_MS: '200',
    });
    const merchant = await setup.service.createMerchant();
    client = createCheckoutClient({
      baseUrl: setup.service.url,
      apiKey: merchant.key,
      walletAddress: merchant.address,
    });
    const { port, webhookUrl } = await exampleShopPort();
    const product = await client.POST('/api/v1/products', {
      body: {
        product: {
          name: 'Espresso beans',
          email: 'shop@example.com',
          active: true,
          send_webhook: true,
          webhook_url: webhookUrl,
          custom_fields: [],
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: setup.busd },
        },
      },
    });
    if (!product.data) throw new Error(JSON.stringify(product.error));
    ({ id: productId, slug } = product.data.product);
    shop = await startExampleShop({
      checkoutUrl: setup.service.url,
      key: merchant.key,
      wallet: merchant.address,
      productId,
      port,
    });
  });
  afterAll(async () => {
    await shop?.stop();
    await setup?.stop();
  });

  const records = async () => (await (await fetch(`${shop!.url}/records`)).json()) as ShopRecords;

  /** A shopper opens the shop's page (a new order) and its checkout: the order's id and the session's. */
  const newOrder = async () => {
    const before = Object.keys((await records()).orders);
    expect((await fetch(`${shop!.url}/`)).status).toBe(200);
    const orderId = Object.keys((await records()).orders).find((id) => !before.includes(id))!;
    const session = await setup!.service.request('POST', `/api/v1/checkout/${slug}/sessions`, {
      json: {
        email: 'shopper@example.com',
        expected_payment_id: orderId,
        sender_address: setup!.chain.deployment.shoppers[0]!.address,
        token_address: setup!.busd,
      },
    });
    expect(session.status, session.text).toBe(200);
    return { orderId, sessionId: session.body.session.id as string };
  };

  /** The sandbox makes `outcome` happen to the session; answers the transactions it sent. */
  const simulate = async (
    sessionId: string,
    body:
      | { outcome: 'paid' | 'paid_late' | 'paid_twice' | 'failed' | 'reversed' | 'unmatched' }
      | { outcome: 'underpaid' | 'overpaid'; percent: number },
  ) => {
    const res = await client.POST('/sandbox/checkout/sessions/{id}/simulate', {
      params: { path: { id: sessionId } },
      body,
    });
    if (!res.data) throw new Error(JSON.stringify(res.error));
    return res.data;
  };

  const orderOnceIt = (orderId: string, done: (o: ShopRecords['orders'][string]) => boolean, what: string) =>
    waitFor(
      async () => (await records()).orders[orderId],
      (order) => order !== undefined && done(order),
      what,
    ).then((order) => order!);

  it('paid: the order is paid with its transaction', async () => {
    const { orderId, sessionId } = await newOrder();
    expect((await records()).orders[orderId]).toEqual({ status: 'awaiting_payment' });
    const { transactions } = await simulate(sessionId, { outcome: 'paid' });
    const order = await orderOnceIt(orderId, (o) => o.status !== 'awaiting_payment', 'never paid');
    expect(order).toMatchObject({
      status: 'paid',
      exception_status: null,
      tx_id: transactions[0]!.tx_hash,
      received: '12.5',
    });
  });

  it('underpaid by 2 %: the order is held as underpaid, not paid', async () => {
    const { orderId, sessionId } = await newOrder();
    await simulate(sessionId, { outcome: 'underpaid', percent: 2 });
    const order = await orderOnceIt(orderId, (o) => o.status !== 'awaiting_payment', 'never resolved');
    expect(order).toMatchObject({
      status: 'underpaid',
      exception_status: 'paid_partially',
      received: '12.25',
    });
  });

  it('overpaid and paid late: both orders are paid, each with its exception', async () => {
    const over = await newOrder();
    await simulate(over.sessionId, { outcome: 'overpaid', percent: 2 });
    const late = await newOrder();
    await simulate(late.sessionId, { outcome: 'paid_late' });
    const resolved = (o: ShopRecords['orders'][string]) => o.status !== 'awaiting_payment';
    expect(await orderOnceIt(over.orderId, resolved, 'never resolved')).toMatchObject({
      status: 'paid',
      exception_status: 'paid_over',
      received: '12.75',
    });
    expect(await orderOnceIt(late.orderId, resolved, 'never resolved')).toMatchObject({
      status: 'paid',
      exception_status: 'paid_late',
    });
  });

  it('failed: a reverted transaction leaves the order failed', async () => {
    const { orderId, sessionId } = await newOrder();
    const { transactions } = await simulate(sessionId, { outcome: 'failed' });
    expect(transactions[0]!.status).toBe('reverted');
    const order = await orderOnceIt(orderId, (o) => o.status !== 'awaiting_payment', 'never resolved');
    expect(order).toMatchObject({ status: 'failed', tx_id: transactions[0]!.tx_hash });
  });

  it('paid twice: the order stays paid, marked paid_twice, and the second transfer is kept for review', async () => {
    const { orderId, sessionId } = await newOrder();
    const { transactions } = await simulate(sessionId, { outcome: 'paid_twice' });
    const order = await orderOnceIt(orderId, (o) => o.exception_status === 'paid_twice', 'never paid twice');
    expect(order).toMatchObject({ status: 'paid', tx_id: transactions[0]!.tx_hash });
    const second = await waitFor(
      async () =>
        (await client.GET('/api/v1/unmatched_transfers')).data!.unmatched_transfers.find(
          (t) => t.tx_hash === transactions[1]!.tx_hash,
        ),
      Boolean,
      'the second transfer was never recorded',
    );
    await waitFor(
      async () => (await records()).unmatched_transfers,
      (u) => second!.id in u,
      'the shop never heard of the second transfer',
    );
  });

  it('refunded in full: the refund confirmed, and the order refunded', async () => {
    const { orderId, sessionId } = await newOrder();
    await simulate(sessionId, { outcome: 'paid' });
    const paid = await orderOnceIt(orderId, (o) => o.status === 'paid', 'never paid');
    const refund = await client.POST('/api/v1/resolved_payments/{id}/refunds', {
      params: { path: { id: paid.payment_id! } },
      body: { reason: 'Out of stock', amount: '12.5' },
    });
    if (!refund.data) throw new Error(JSON.stringify(refund.error));
    const refundId = refund.data.refund.id;
    const claimed = await client.POST('/sandbox/refunds/{id}/simulate', {
      params: { path: { id: refundId } },
      body: { outcome: 'claimed', refund_address: setup!.chain.deployment.shoppers[1]!.address },
    });
    expect(claimed.data?.refund.status, JSON.stringify(claimed.error)).toBe('ready_to_pay');
    const sent = await client.POST('/sandbox/refunds/{id}/simulate', {
      params: { path: { id: refundId } },
      body: { outcome: 'paid' },
    });
    if (!sent.data) throw new Error(JSON.stringify(sent.error));
    const order = await orderOnceIt(orderId, (o) => o.status === 'refunded', 'never refunded');
    expect(order).toMatchObject({ exception_status: 'refunded', refunds: { [refundId]: 'confirmed' } });
  });

  it('reversed: the order is reversed, and a redelivery of its first event does not make it paid again', async () => {
    const { orderId, sessionId } = await newOrder();
    const res = await simulate(sessionId, { outcome: 'reversed' });
    expect(res.removed_blocks).toContain(res.transactions[0]!.block_hash);
    const order = await orderOnceIt(orderId, (o) => o.status === 'reversed', 'never reversed');
    expect(order.exception_status).toBe('reversed');

    // The created event once more (same event id, an older sequence): acknowledged, and nothing changes.
    const deliveries = async () =>
      (await client.GET('/api/v1/products/{id}/webhook_deliveries', { params: { path: { id: productId } } }))
        .data!.webhook_deliveries;
    // The newest resolved_payment.created is this order's (the deliveries are listed newest first).
    const created = await waitFor(
      async () => (await deliveries()).find((d) => d.event_type === 'resolved_payment.created' && !d.test),
      (d) => d?.status === 'succeeded',
      'no delivered resolved_payment.created',
    );
    const again = await client.POST('/api/v1/webhook_deliveries/{id}/redeliver', {
      params: { path: { id: created!.id } },
    });
    if (!again.data) throw new Error(JSON.stringify(again.error));
    const redelivery = again.data.webhook_delivery.id;
    await waitFor(
      async () => (await deliveries()).find((d) => d.id === redelivery),
      (d) => d?.status === 'succeeded' && d.attempts[0]?.status_code === 204,
      'the redelivery was never answered 204',
    );
    expect((await records()).orders[orderId]).toMatchObject({
      status: 'reversed',
      exception_status: 'reversed',
    });
  });

  it('a refund the customer never claims: the order records it expired', async () => {
    const { orderId, sessionId } = await newOrder();
    await simulate(sessionId, { outcome: 'paid' });
    const paid = await orderOnceIt(orderId, (o) => o.status === 'paid', 'never paid');
    const refund = await client.POST('/api/v1/resolved_payments/{id}/refunds', {
      params: { path: { id: paid.payment_id! } },
      body: { reason: 'Out of stock', amount: '12.5' },
    });
    if (!refund.data) throw new Error(JSON.stringify(refund.error));
    const refundId = refund.data.refund.id;
    const expired = await client.POST('/sandbox/refunds/{id}/simulate', {
      params: { path: { id: refundId } },
      body: { outcome: 'expired' },
    });
    expect(expired.data?.refund.status).toBe('expired');
    const order = await orderOnceIt(
      orderId,
      (o) => o.refunds?.[refundId] === 'expired',
      'never told expired',
    );
    // The money never left: the order stays paid.
    expect(order.status).toBe('paid');
  });

  it('a transfer that fits no order: the shop lists it for review, and no order changes', async () => {
    const { orderId, sessionId } = await newOrder();
    const { transactions } = await simulate(sessionId, { outcome: 'unmatched' });
    const listed = await waitFor(
      async () =>
        (await client.GET('/api/v1/unmatched_transfers')).data!.unmatched_transfers.find(
          (t) => t.tx_hash === transactions[0]!.tx_hash,
        ),
      Boolean,
      'never recorded as unmatched',
    );
    const shopSaw = await waitFor(
      async () => (await records()).unmatched_transfers,
      (u) => listed!.id in u,
      'the shop never heard of it',
    );
    expect(shopSaw[listed!.id]).toBe('open');
    expect((await records()).orders[orderId]).toEqual({ status: 'awaiting_payment' });
  });

  it('acknowledges every sample event with 204 and changes no order', async () => {
    const before = (await records()).orders;
    for (const event of productTestEvents) {
      const sent = await client.POST('/api/v1/products/{id}/webhook_test_events', {
        params: { path: { id: productId } },
        body: { event },
      });
      if (!sent.data) throw new Error(JSON.stringify(sent.error));
      expect(sent.data.webhook_delivery.attempts[0]?.status_code, event).toBe(204);
    }
    const after = await records();
    expect(after.test_events).toEqual([...productTestEvents]);
    expect(after.orders).toEqual(before);
  });
});
