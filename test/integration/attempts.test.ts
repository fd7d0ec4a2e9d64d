/**
 * Attempts and their openers: an attempt declaring a shopper's wallet neither closes the shopper's attempt
 * nor takes its payment (on the same product or another), only a session's opener changes or closes it, an
 * attempt given up takes nothing, and a paid checkout takes no second hash. Real server and worker, real
 * Temporal, a local EVM chain.
 */
import { randomBytes } from 'node:crypto';
import type { ResolvedPayment } from '@checkout/core';
import type { Address, Hash } from 'viem';
import { parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { waitForSession } from '../support/waitFor.ts';

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
        CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS: '1',
        CHECKOUT_SCAN_INTERVAL_MS: '100',
      },
    });
    merchant = await service.createMerchant();
  });
  afterAll(async () => {
    await service?.stop();
    await chain?.stop();
  });

  const createProduct = async (openAmount: boolean, customFields: string[] = []) => {
    const res = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Flowers',
          email: 'merchant@example.com',
          active: true,
          open_amount: openAmount,
          custom_fields: customFields,
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

  type Session = {
    id: string;
    status: string;
    tx_hash: string | null;
    expected_payment_id: string;
    email?: string;
    reference: string;
    transaction: { to: string; data: string };
  };
  const openWith = (slug: string, body: Record<string, unknown>, secret?: string) =>
    service.request('POST', `/api/v1/checkout/${slug}/sessions`, {
      json: { email: 'shopper@example.com', token_address: busd, ...body },
      ...(secret ? { headers: { 'X-Client-Secret': secret } } : {}),
    });
  const open = async (slug: string, body: Record<string, unknown>) => {
    const res = await openWith(slug, body);
    expect(res.status, res.text).toBe(200);
    expect(res.body.client_secret).toMatch(/^cs_/);
    return { ...(res.body.session as Session), secret: res.body.client_secret as string };
  };
  const close = (id: string, secret?: string) =>
    service.request('POST', `/api/v1/checkout/sessions/${id}/close`, {
      ...(secret ? { headers: { 'X-Client-Secret': secret } } : {}),
    });
  const session = async (id: string) =>
    (await service.request('GET', `/api/v1/checkout/sessions/${id}`)).body.session as Session;
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

  it('never lets an attempt declaring the shopper’s wallet close the shopper’s attempt or take its payment', async () => {
    const product = await createProduct(true);
    const victim = await open(product.slug, {
      dollar_amount: '89.00',
      sender_address: shopper(0),
      email: 'victim@example.com',
    });
    // A stranger who knows the shopper's wallet declares it on a $1.00 attempt of the same product.
    const attacker = await open(product.slug, {
      dollar_amount: '1.00',
      sender_address: shopper(0),
      email: 'attacker@example.com',
    });
    expect(await session(victim.id)).toMatchObject({ status: 'awaiting_payment' });
    // Nor can the stranger close it ("Pay now" stays): only its opener's secret closes it.
    expect((await close(victim.id)).body).toMatchObject({
      status: 403,
      error_code: 'forbidden',
      errors: [{ path: 'X-Client-Secret' }],
    });
    expect((await close(victim.id, attacker.secret)).status).toBe(403);
    expect(await session(victim.id)).toMatchObject({ status: 'awaiting_payment' });

    const tx = await chain.send(0, victim.transaction);
    expect((await submit(attacker.id, tx)).body).toMatchObject({ error_code: 'tx_not_for_session' });
    expect((await submit(victim.id, tx)).status).toBe(200);
    await waitForSession(service, victim.id, ['resolved']);
    const [payment, ...more] = await payments(product.id);
    expect(more).toHaveLength(0);
    expect(payment!.user.email).toBe('victim@example.com');
    expect(payment!.payment).toMatchObject({ amount_difference: '0.0', received_token_amount: '89' });
    expect(await session(attacker.id)).toMatchObject({ status: 'awaiting_payment', tx_hash: null });
  });

  it('never lets a stranger’s hash keep the shopper’s attempt from its own payment', async () => {
    const product = await createProduct(true);
    const victim = await open(product.slug, { dollar_amount: '5.55', sender_address: shopper(4) });
    // A hash no chain knows, submitted by whoever learnt the session's id (for a merchant's order, re-posting
    // its checkout link shows it): at most a hint, it neither stops the session's look for its payment nor
    // refuses the shopper's own hash, which carries the session's reference.
    const bogus = `0x${randomBytes(32).toString('hex')}` as Hash;
    expect([200, 202]).toContain((await submit(victim.id, bogus)).status);
    const tx = await chain.send(4, victim.transaction);
    const own = await submit(victim.id, tx);
    expect(own.status, own.text).toBe(200);
    expect((await waitForSession(service, victim.id, ['resolved'])).tx_hash).toBe(tx.toLowerCase());
  });

  it('never lets an attempt on another product of the merchant take the shopper’s payment', async () => {
    const [a, b] = [await createProduct(true), await createProduct(true)];
    const attacker = await open(b.slug, { dollar_amount: '1.00', sender_address: shopper(1) });
    const victim = await open(a.slug, { dollar_amount: '97.00', sender_address: shopper(1) });
    const tx = await chain.send(1, victim.transaction);
    expect((await submit(attacker.id, tx)).body).toMatchObject({ error_code: 'tx_not_for_session' });
    // A closed tab: the victim's session finds its payment by its reference alone.
    expect((await waitForSession(service, victim.id, ['resolved'])).tx_hash).toBe(tx.toLowerCase());
    expect(await payments(b.id)).toHaveLength(0);
    expect(await session(attacker.id)).toMatchObject({ status: 'awaiting_payment', tx_hash: null });
  });

  it('keeps a session as its opener left it when someone re-posts it by its checkout link', async () => {
    const product = await createProduct(false, ['full_name']);
    const expectedPaymentId = await expectedPayment(product.id, '6.60');
    const opened = await open(product.slug, {
      expected_payment_id: expectedPaymentId,
      sender_address: shopper(2),
      email: 'owner@example.com',
      custom_fields: { full_name: 'Olive Owner' },
    });
    const fields = () =>
      service.db.kysely
        .selectFrom('checkout_sessions')
        .select(['email', 'custom_fields', 'sender_address'])
        .where('id', '=', opened.id)
        .executeTakeFirstOrThrow();
    // Whoever has the link re-posts it: without the opener's secret, the session comes back as it was.
    const reposted = await openWith(product.slug, {
      expected_payment_id: expectedPaymentId,
      sender_address: shopper(3),
      email: 'attacker@example.com',
      custom_fields: { full_name: 'Mallory' },
    });
    expect(reposted.status, reposted.text).toBe(200);
    expect(reposted.body).toMatchObject({
      client_secret: null,
      session: { id: opened.id, sender_address: shopper(2) },
    });
    expect(await fields()).toMatchObject({
      email: 'owner@example.com',
      custom_fields: { full_name: 'Olive Owner' },
      sender_address: shopper(2),
    });
    // Its opener changes it with the secret it was given.
    const updated = await openWith(
      product.slug,
      {
        expected_payment_id: expectedPaymentId,
        sender_address: shopper(2),
        email: 'owner2@example.com',
        custom_fields: { full_name: 'Olive Owner-Two' },
      },
      opened.secret,
    );
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.client_secret).toBe(opened.secret);
    expect(await fields()).toMatchObject({
      email: 'owner2@example.com',
      custom_fields: { full_name: 'Olive Owner-Two' },
    });
    // The merchant's record of the payment carries what the opener gave.
    await chain.send(2, opened.transaction);
    await waitForSession(service, opened.id, ['resolved']);
    expect((await payments(product.id)).map((p) => p.user)).toEqual([
      { email: 'owner2@example.com', custom_fields: { full_name: 'Olive Owner-Two' } },
    ]);
  });

  it('closes an attempt the element gives up, and leaves a merchant’s expected payment payable', async () => {
    const openAmount = await createProduct(true);
    const attempt = await open(openAmount.slug, { dollar_amount: '4.40', sender_address: shopper(1) });
    const closed = await close(attempt.id, attempt.secret);
    expect(closed.status, closed.text).toBe(200);
    expect(closed.body.session).toMatchObject({ id: attempt.id, status: 'closed' });
    expect((await close(attempt.id, attempt.secret)).status).toBe(200);
    // Paid later with its reference, the closed attempt takes nothing: the merchant sees the transfer.
    const stray = await chain.send(1, attempt.transaction);
    expect((await submit(attempt.id, stray)).body).toMatchObject({
      status: 409,
      error_code: 'checkout_closed',
    });

    const fixed = await createProduct(false);
    const order = await open(fixed.slug, {
      expected_payment_id: await expectedPayment(fixed.id, '4.50'),
      sender_address: shopper(1),
    });
    const kept = await close(order.id, order.secret);
    expect(kept.body.session).toMatchObject({ status: 'awaiting_payment' });
    await submit(order.id, await pay(1, '4.50'));
    await waitForSession(service, order.id, ['resolved']);
    const paid = await close(order.id, order.secret);
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
    await waitForSession(service, order.id, ['resolved']);
    const again = await pay(2, '2.20');
    const refused = await submit(order.id, again);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toMatchObject({ error_code: 'checkout_already_paid' });
    // The first hash again is still its payment.
    expect((await submit(order.id, first)).status).toBe(200);
    expect(await payments(product.id)).toHaveLength(1);
  });
});
