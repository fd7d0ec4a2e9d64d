/**
 * Paying from another device: sessions opened without a payer each get a unique amount, and a transfer
 * of exactly that amount — from any account, with no hash submitted — resolves its own session.
 */
import type { ResolvedPayment } from '@checkout/core';
import { releasePaymentAmounts, reservePaymentAmount } from '@checkout/db';
import { type Address, type Hash, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { randomAddress, startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { waitForSession } from '../support/waitFor.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.ts';

interface Session {
  id: string;
  expected_payment_id: string;
  status: string;
  expected_token_amount: string;
  sender_address: string | null;
  payment_uri: string | null;
  tx_hash: string | null;
}

describe.skipIf(databaseUnavailable())('checkout without a payer (another device)', () => {
  let chain: TestChain;
  let service: TestService;
  let receiver: WebhookReceiver;
  let merchant: TestMerchant;
  let busd: Address;

  beforeAll(async () => {
    [chain, receiver] = await Promise.all([startTestChain(), startWebhookReceiver()]);
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
    await Promise.all([chain?.stop(), receiver?.close()]);
  });

  const createProduct = async (overrides: Record<string, unknown> = {}) => {
    const res = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Tea',
          email: 'merchant@example.com',
          active: true,
          send_webhook: true,
          webhook_url: receiver.url,
          send_email: false,
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
      json: { dollar_amount: dollarAmount },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.expected_payment as { id: string };
  };

  const openPayerless = async (slug: string, body: Record<string, unknown>, secret?: string) => {
    const res = await service.request('POST', `/api/v1/checkout/${slug}/sessions`, {
      json: { email: 'shopper@example.com', token_address: busd, ...body },
      ...(secret ? { headers: { 'X-Client-Secret': secret } } : {}),
    });
    expect(res.status, res.text).toBe(200);
    return { ...(res.body.session as Session), secret: res.body.client_secret as string | null };
  };

  const getSession = async (id: string) =>
    (await service.request('GET', `/api/v1/checkout/sessions/${id}`)).body.session as Session;

  const resolvedPayments = async (productId: string) => {
    const res = await service.request('GET', `/api/v1/products/${productId}/resolved_payments`, {
      headers: merchant.headers,
    });
    expect(res.status).toBe(200);
    return res.body.resolved_payments as ResolvedPayment[];
  };

  const shopper = (index: number) => chain.deployment.shoppers[index]!.address;
  const units = (session: Session) => parseUnits(session.expected_token_amount, 18);
  const claimed = async (txHash: Hash) =>
    service.deps.db.kysely
      .selectFrom('checkout_transactions')
      .selectAll()
      .where('tx_hash', '=', txHash.toLowerCase())
      .execute();

  it('resolves two open sessions of one price, each by its own exact amount from an unknown account', async () => {
    const product = await createProduct();
    const [first, second] = [
      await expectPayment(product.id, '4.00'),
      await expectPayment(product.id, '4.00'),
    ];
    const [a, b] = await Promise.all([
      openPayerless(product.slug, { expected_payment_id: first.id }),
      openPayerless(product.slug, { expected_payment_id: second.id }),
    ]);
    // Each amount is the price plus its own tail (at most 999 millionths of a token).
    expect(a.expected_token_amount).not.toBe(b.expected_token_amount);
    for (const s of [a, b]) {
      expect(s.sender_address).toBeNull();
      expect(s.expected_token_amount).toMatch(/^4\.000\d{0,3}$/);
      expect(units(s) > parseUnits('4', 18) && units(s) < parseUnits('4.001', 18)).toBe(true);
      expect(s.payment_uri).toBe(
        `ethereum:${busd}@97/transfer?address=${merchant.address}&uint256=${units(s).toString()}`,
      );
    }
    // Opening again gives the same session, with the same amount.
    const again = await openPayerless(product.slug, { expected_payment_id: first.id });
    expect(again).toMatchObject({ id: a.id, expected_token_amount: a.expected_token_amount });

    // The price alone (no tail) and an amount one base unit off pay neither session.
    const price = await chain.transfer(2, busd, merchant.address as Address, parseUnits('4', 18));
    const offByOne = await chain.transfer(2, busd, merchant.address as Address, units(a) + 1n);
    // B is paid first, by another account than A: neither pays "its" session by order.
    const paysB = await chain.transfer(3, busd, merchant.address as Address, units(b));
    const paysA = await chain.transfer(1, busd, merchant.address as Address, units(a));

    const [doneA, doneB] = await Promise.all([
      waitForSession(service, a.id, ['resolved']),
      waitForSession(service, b.id, ['resolved']),
    ]);
    expect(doneA.tx_hash).toBe(paysA.toLowerCase());
    expect(doneB.tx_hash).toBe(paysB.toLowerCase());

    const payments = await resolvedPayments(product.id);
    expect(payments).toHaveLength(2);
    const byExpected = new Map(payments.map((p) => [p.expected_payment_id, p]));
    // The exact amount asked is the expected amount: an exact payment is "0.0", never an overpayment.
    expect(byExpected.get(first.id)!.payment).toMatchObject({
      tx_id: paysA.toLowerCase(),
      sender_address: shopper(1),
      expected_token_amount: a.expected_token_amount,
      received_token_amount: a.expected_token_amount,
      amount_difference: '0.0',
      exception_status: null,
    });
    expect(byExpected.get(second.id)!.payment).toMatchObject({
      tx_id: paysB.toLowerCase(),
      sender_address: shopper(3),
      amount_difference: '0.0',
    });

    // One webhook each, for its own payment (the wrong amounts are announced as unmatched transfers).
    const deadline = Date.now() + 30_000;
    const resolvedHooks = () =>
      receiver.received.filter((h) => h.headers['x-webhook-event'] === 'resolved_payment.created');
    while (resolvedHooks().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const hooked = resolvedHooks().map((h) => JSON.parse(h.body) as ResolvedPayment);
    expect(new Set(hooked.map((h) => `${h.expected_payment_id} ${h.payment.tx_id}`))).toEqual(
      new Set([`${first.id} ${paysA.toLowerCase()}`, `${second.id} ${paysB.toLowerCase()}`]),
    );

    // The wrong amounts were taken by no session (they are recorded as unmatched transfers).
    for (const tx of [price, offByOne]) {
      expect((await claimed(tx)).filter((c) => c.session_id !== null)).toEqual([]);
    }
    // Resolved sessions give their amounts back.
    const held = await service.deps.db.kysely
      .selectFrom('checkout_payment_amounts')
      .selectAll()
      .where('session_id', 'in', [a.id, b.id])
      .execute();
    expect(held).toEqual([]);
  });

  it('leaves a session waiting when only a wrong amount arrives, and its amount pays it whoever sends it', async () => {
    const product = await createProduct({ send_webhook: false, open_amount: true });
    const qr = await openPayerless(product.slug, { dollar_amount: '1.50' });
    // A wallet session open at the same price holds the price itself.
    const wallet = await openPayerless(product.slug, { dollar_amount: '1.50', sender_address: shopper(4) });
    expect(wallet.payment_uri).toBeNull();
    expect(wallet.expected_token_amount).toBe('1.5');
    const wrong = await chain.transfer(1, busd, merchant.address as Address, units(qr) - 1n);
    // One base unit short is recorded for no session, and the QR session still waits.
    const deadline = Date.now() + 45_000;
    while ((await claimed(wrong)).length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(await claimed(wrong)).toMatchObject([{ session_id: null }]);
    expect(await getSession(qr.id)).toMatchObject({ status: 'awaiting_payment', tx_hash: null });
    // The wallet session's declared shopper sends the QR session's amount, without a reference: it pays the
    // session holding it, whoever declared what, and the wallet session takes nothing.
    const exact = await chain.transfer(4, busd, merchant.address as Address, units(qr));
    expect((await waitForSession(service, qr.id, ['resolved'])).tx_hash).toBe(exact.toLowerCase());
    expect(await claimed(exact)).toMatchObject([{ session_id: qr.id }]);
    expect(await getSession(wallet.id)).toMatchObject({ status: 'awaiting_payment', tx_hash: null });
  });

  it('gives sessions opened at once distinct amounts', async () => {
    const product = await createProduct({ send_webhook: false, open_amount: true });
    const sessions = await Promise.all(
      Array.from({ length: 12 }, () => openPayerless(product.slug, { dollar_amount: '9.99' })),
    );
    expect(new Set(sessions.map((s) => s.id)).size).toBe(12);
    expect(new Set(sessions.map((s) => s.expected_token_amount)).size).toBe(12);
  });

  it('reserves each amount once, takes over a lapsed one, and refuses when all are held', async () => {
    const db = service.deps.db.kysely;
    const key = { chainId: 97, receivingAddress: randomAddress(), tokenAddress: busd };
    const minute = (n: number) => new Date(Date.now() + n * 60_000);
    const reserve = (sessionId: string, reservedUntil = minute(5), now?: Date) =>
      reservePaymentAmount(db, {
        ...key,
        sessionId,
        reservedUntil,
        candidates: [11n, 12n],
        ...(now ? { now } : {}),
      });
    const [one, two, three] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    expect(await reserve(one, minute(1))).toBe(11n);
    expect(await reserve(two)).toBe(12n);
    expect(await reserve(crypto.randomUUID())).toBeNull();
    // Two minutes on, 11 has lapsed: a third session takes it over, and nothing is left for a fourth.
    expect(await reserve(three, minute(10), minute(2))).toBe(11n);
    expect(await reserve(crypto.randomUUID(), minute(10), minute(2))).toBeNull();
    // Asking again for a session that holds an amount gives it back the same one.
    expect(await reserve(two)).toBe(12n);
    await releasePaymentAmounts(db, two);
    expect(await reserve(crypto.randomUUID())).toBe(12n);
  });

  it('opens a payer-less session in the product token only', async () => {
    const product = await createProduct({ send_webhook: false, swappable: true });
    const expected = await expectPayment(product.id, '2.00');
    const res = await service.request('POST', `/api/v1/checkout/${product.slug}/sessions`, {
      json: {
        email: 'shopper@example.com',
        expected_payment_id: expected.id,
        token_address: chain.deployment.tokens.DAI.address,
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ path: 'token_address', message: expect.stringContaining('sender_address') }),
    ]);
  });

  it('turns a wallet session into one paid from another device when its opener asks', async () => {
    const product = await createProduct({ send_webhook: false });
    const expected = await expectPayment(product.id, '3.00');
    const withWallet = await openPayerless(product.slug, {
      expected_payment_id: expected.id,
      sender_address: shopper(0),
    });
    expect(withWallet.payment_uri).toBeNull();
    // Someone else asking changes nothing.
    const refused = await openPayerless(product.slug, { expected_payment_id: expected.id });
    expect(refused).toMatchObject({
      id: withWallet.id,
      sender_address: shopper(0),
      payment_uri: null,
      secret: null,
    });
    const moved = await openPayerless(product.slug, { expected_payment_id: expected.id }, withWallet.secret!);
    expect(moved.id).toBe(withWallet.id);
    expect(moved.sender_address).toBeNull();
    // The wallet session held the bare price; paid from another device, it holds a tail of its own.
    expect(withWallet.expected_token_amount).toBe('3');
    const tail = units(moved) - parseUnits('3', 18);
    expect(tail > 0n && tail <= 999n * 10n ** 12n, `tail ${tail}`).toBe(true);
    expect(moved.payment_uri).toBe(
      `ethereum:${busd}@97/transfer?address=${merchant.address}&uint256=${units(moved).toString()}`,
    );
    const tx = await chain.transfer(2, busd, merchant.address as Address, units(moved));
    expect((await waitForSession(service, moved.id, ['resolved'])).tx_hash).toBe(tx.toLowerCase());
  });
});
