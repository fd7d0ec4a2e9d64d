/**
 * Certain attribution: an attempt the shopper gave up takes nothing, a paid checkout takes no second hash,
 * and a payer's transfer pays an order without its hash only when its amount leaves no doubt. Real server and
 * worker, real Temporal, a local EVM chain.
 */
import type { ResolvedPayment } from '@checkout/core';
import type { Address, Hash } from 'viem';
import { parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';

describe.skipIf(databaseUnavailable())('attempts and certain attribution', () => {
  let chain: TestChain;
  let service: TestService;
  let merchant: TestMerchant;
  let busd: Address;

  beforeAll(async () => {
    chain = await startTestChain();
    busd = chain.deployment.tokens.BUSD.address;
    service = await startTestService({
      env: {
        RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl,
        CHAIN_POLL_INTERVAL_MS: '100',
        CHECKOUT_GRACE_MINUTES: '1',
        CHECKOUT_SCAN_CLAIM_DELAY_SECONDS: '1',
        CHECKOUT_SCAN_INTERVAL_MS: '100',
      },
    });
    merchant = await service.createMerchant();
  });
  afterAll(async () => {
    await service?.stop();
    await chain?.stop();
  });

  const createProduct = async (openAmount: boolean) => {
    const res = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Flowers',
          email: 'merchant@example.com',
          active: true,
          open_amount: openAmount,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd },
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.product as { id: string; slug: string };
  };

  const expectedPayment = async (productId: string, dollarAmount: string) => {
    const res = await service.request('POST', `/api/v1/products/${productId}/expected_payments`, {
      headers: merchant.headers,
      json: { dollar_amount: dollarAmount },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.expected_payment.id as string;
  };

  type Session = { id: string; status: string; tx_hash: string | null; expected_payment_id: string };
  const open = async (slug: string, body: Record<string, unknown>) => {
    const res = await service.request('POST', `/api/v1/checkout/${slug}/sessions`, {
      json: { email: 'shopper@example.com', token_address: busd, ...body },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.session as Session;
  };
  const session = async (id: string) =>
    (await service.request('GET', `/api/v1/checkout/sessions/${id}`)).body.session as Session;
  const waitFor = async (id: string, statuses: string[]) => {
    const deadline = Date.now() + 45_000;
    for (;;) {
      const current = await session(id);
      if (statuses.includes(current.status)) return current;
      if (Date.now() > deadline) throw new Error(`session ${id} stayed ${current.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const submit = (sessionId: string, txHash: Hash) =>
    service.request('POST', `/api/v1/checkout/sessions/${sessionId}/transactions`, {
      json: { tx_hash: txHash },
    });
  const payments = async (productId: string) =>
    (
      await service.request('GET', `/api/v1/products/${productId}/resolved_payments`, {
        headers: merchant.headers,
      })
    ).body.resolved_payments as ResolvedPayment[];
  const shopper = (index: number) => chain.deployment.shoppers[index]!.address;
  const pay = (index: number, amount: string) =>
    chain.transfer(index, busd, merchant.address as Address, parseUnits(amount, 18));
  /** Past the claim delay and a few watcher ticks: a look that would take a transfer has taken it. */
  const settle = () => new Promise((r) => setTimeout(r, 3_000));

  it('closes the payer’s earlier attempt when a newer one opens on the same product; it takes nothing after', async () => {
    const product = await createProduct(true);
    const first = await open(product.slug, { dollar_amount: '12.50', sender_address: shopper(0) });
    const second = await open(product.slug, { dollar_amount: '13.00', sender_address: shopper(0) });
    expect(await session(first.id)).toMatchObject({ status: 'closed' });
    const attempt = await service.db.kysely
      .selectFrom('expected_payments')
      .select('status')
      .where('id', '=', first.expected_payment_id)
      .executeTakeFirstOrThrow();
    expect(attempt.status).toBe('closed');

    await submit(second.id, await pay(0, '13.00'));
    await waitFor(second.id, ['resolved']);
    // The abandoned attempt's amount, paid later from the same wallet: no order takes it by a guess.
    const stray = await pay(0, '12.50');
    expect((await submit(first.id, stray)).body).toMatchObject({
      status: 409,
      error_code: 'checkout_closed',
    });
    await settle();
    expect(await session(first.id)).toMatchObject({ status: 'closed', tx_hash: null });
    expect((await payments(product.id)).map((p) => p.payment.received_token_amount)).toEqual(['13']);
  });

  it('closes an attempt the element gives up, and leaves a merchant’s expected payment payable', async () => {
    const openAmount = await createProduct(true);
    const attempt = await open(openAmount.slug, { dollar_amount: '4.40', sender_address: shopper(1) });
    const closed = await service.request('POST', `/api/v1/checkout/sessions/${attempt.id}/close`);
    expect(closed.status, closed.text).toBe(200);
    expect(closed.body.session).toMatchObject({ id: attempt.id, status: 'closed' });
    expect((await service.request('POST', `/api/v1/checkout/sessions/${attempt.id}/close`)).status).toBe(200);

    const fixed = await createProduct(false);
    const order = await open(fixed.slug, {
      expected_payment_id: await expectedPayment(fixed.id, '4.50'),
      sender_address: shopper(1),
    });
    const kept = await service.request('POST', `/api/v1/checkout/sessions/${order.id}/close`);
    expect(kept.body.session).toMatchObject({ status: 'awaiting_payment' });
    await submit(order.id, await pay(1, '4.50'));
    await waitFor(order.id, ['resolved']);
    const paid = await service.request('POST', `/api/v1/checkout/sessions/${order.id}/close`);
    expect(paid.body).toMatchObject({ status: 409, error_code: 'checkout_already_paid' });
  });

  it('answers a second hash for a paid checkout with 409 checkout_already_paid (a second tab)', async () => {
    const product = await createProduct(false);
    const order = await open(product.slug, {
      expected_payment_id: await expectedPayment(product.id, '2.20'),
      sender_address: shopper(2),
    });
    const first = await pay(2, '2.20');
    expect((await submit(order.id, first)).status).toBe(200);
    await waitFor(order.id, ['resolved']);
    const again = await pay(2, '2.20');
    const refused = await submit(order.id, again);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toMatchObject({ error_code: 'checkout_already_paid' });
    // The first hash again is still its payment.
    expect((await submit(order.id, first)).status).toBe(200);
    expect(await payments(product.id)).toHaveLength(1);
  });

  it('books a payer’s transfer without its hash only when its amount leaves no doubt', async () => {
    const product = await createProduct(false);
    // Within the tolerance of the payer's one order: a short payment of that order.
    const short = await open(product.slug, {
      expected_payment_id: await expectedPayment(product.id, '10.00'),
      sender_address: shopper(3),
    });
    const shortTx = await pay(3, '9.70');
    expect((await waitFor(short.id, ['resolved'])).tx_hash).toBe(shortTx.toLowerCase());
    const [booked] = await payments(product.id);
    expect(booked!.payment).toMatchObject({ exception_status: 'paid_partially', amount_difference: '-3.0' });

    // Far from the payer's one order: not that order's.
    const far = await open(product.slug, {
      expected_payment_id: await expectedPayment(product.id, '20.00'),
      sender_address: shopper(4),
    });
    await pay(4, '10.00');
    // Near two orders of the same payer: whose it is cannot be told.
    const a = await open(product.slug, {
      expected_payment_id: await expectedPayment(product.id, '30.00'),
      sender_address: shopper(3),
    });
    const b = await open(product.slug, {
      expected_payment_id: await expectedPayment(product.id, '30.50'),
      sender_address: shopper(3),
    });
    await pay(3, '30.20');
    await settle();
    for (const id of [far.id, a.id, b.id]) {
      expect(await session(id)).toMatchObject({ status: 'awaiting_payment', tx_hash: null });
    }
    expect(await payments(product.id)).toHaveLength(1);
  });
});
