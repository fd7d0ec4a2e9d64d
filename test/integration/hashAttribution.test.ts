/**
 * A submitted hash pays only its payer's session: transfers are public and the receiving address is too,
 * so a hash proves nothing about who is paying unless the transaction's sender is the session's payer and
 * it was mined after the session opened. Real server and worker, real Temporal, a local EVM chain.
 */
import { broadcastSignedTransaction, prepareTokenTransfer } from '@checkout/chain';
import type { ResolvedPayment } from '@checkout/core';
import type { Address, Hash } from 'viem';
import { parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';

/** An address the attacker claims as theirs, or declares as the payer; it never sends anything. */
const attacker = '0x00000000000000000000000000000000000a11ce';

describe.skipIf(databaseUnavailable())('a hash pays only its payer’s session', () => {
  let chain: TestChain;
  let service: TestService;
  let merchant: TestMerchant;
  let busd: Address;
  let product: { id: string; slug: string };

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
    const res = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Tea',
          email: 'merchant@example.com',
          active: true,
          send_webhook: false,
          send_email: false,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd },
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    product = res.body.product;
  });
  afterAll(async () => {
    await service?.stop();
    await chain?.stop();
  });

  const shopper = (index: number) => chain.deployment.shoppers[index]!;

  const openSession = async (email: string, dollarAmount: string, senderAddress: string | null) => {
    const expected = await service.request('POST', `/api/v1/products/${product.id}/expected_payments`, {
      headers: merchant.headers,
      json: { dollar_amount: dollarAmount },
    });
    expect(expected.status, expected.text).toBe(200);
    const res = await service.request('POST', `/api/v1/checkout/${product.slug}/sessions`, {
      json: {
        expected_payment_id: expected.body.expected_payment.id,
        email,
        sender_address: senderAddress,
        token_address: busd,
      },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.session as { id: string; expected_token_amount: string };
  };

  const submit = (sessionId: string, txHash: Hash) =>
    service.request('POST', `/api/v1/checkout/sessions/${sessionId}/transactions`, {
      json: { tx_hash: txHash },
    });

  const session = async (id: string) =>
    (await service.request('GET', `/api/v1/checkout/sessions/${id}`)).body.session as {
      status: string;
      tx_hash: string | null;
      error: string | null;
      resolved_payment_id: string | null;
    };

  const waitFor = async (id: string, done: (s: Awaited<ReturnType<typeof session>>) => boolean) => {
    const deadline = Date.now() + 45_000;
    for (;;) {
      const current = await session(id);
      if (done(current)) return current;
      if (Date.now() > deadline) throw new Error(`session ${id} stayed ${JSON.stringify(current)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  const payments = async () => {
    const res = await service.request('GET', `/api/v1/products/${product.id}/resolved_payments`, {
      headers: merchant.headers,
    });
    return res.body.resolved_payments as ResolvedPayment[];
  };

  it("refuses another payer's hash at once, and the victim's own submission still pays the victim's order", async () => {
    const victim = await openSession('victim@example.com', '4.00', shopper(0).address);
    const thief = await openSession('thief@example.com', '4.00', attacker);
    const tx = await chain.transfer(0, busd, merchant.address as Address, parseUnits('4', 18));

    const stolen = await submit(thief.id, tx);
    expect(stolen.status, stolen.text).toBe(422);
    expect(stolen.body).toMatchObject({ error_code: 'tx_not_from_payer', errors: [{ path: 'tx_hash' }] });

    const own = await submit(victim.id, tx);
    expect(own.status, own.text).toBe(200);
    await waitFor(victim.id, (s) => s.status === 'resolved');
    const [paid, ...more] = (await payments()).filter((p) => p.payment.tx_id === tx.toLowerCase());
    expect(more).toHaveLength(0);
    expect(paid!.user.email).toBe('victim@example.com');
    expect(await session(thief.id)).toMatchObject({ status: 'awaiting_payment', tx_hash: null });
  });

  it('refuses a transfer mined before the session opened, even when the session names its sender', async () => {
    // Paid more than the price before the thief's checkout existed: it used to resolve as `paid_over`.
    const tx = await chain.transfer(1, busd, merchant.address as Address, parseUnits('9', 18));
    const thief = await openSession('thief@example.com', '5.00', shopper(1).address);

    const stolen = await submit(thief.id, tx);
    expect(stolen.status, stolen.text).toBe(422);
    expect(stolen.body).toMatchObject({ error_code: 'tx_before_checkout', errors: [{ path: 'tx_hash' }] });
    // Nor does the closed-tab scan take it: past the claim delay the session still awaits payment.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(await session(thief.id)).toMatchObject({ status: 'awaiting_payment', resolved_payment_id: null });
    expect((await payments()).some((p) => p.payment.tx_id === tx.toLowerCase())).toBe(false);
  });

  it('takes no hash for a session paid from another device: only its exact reserved amount pays it', async () => {
    const other = await chain.transfer(2, busd, merchant.address as Address, parseUnits('6', 18));
    const phone = await openSession('phone@example.com', '6.00', null);

    const submitted = await submit(phone.id, other);
    expect(submitted.status, submitted.text).toBe(422);
    expect(submitted.body).toMatchObject({ error_code: 'tx_not_from_payer' });

    const exact = await chain.transfer(
      2,
      busd,
      merchant.address as Address,
      parseUnits(phone.expected_token_amount, 18),
    );
    const done = await waitFor(phone.id, (s) => s.status === 'resolved');
    expect(done.tx_hash).toBe(exact.toLowerCase());
  });

  it('gives up the claim of a hash found, once mined, not to be its payer’s, so its payer’s session takes it', async () => {
    const victim = await openSession('victim@example.com', '7.00', shopper(3).address);
    const thief = await openSession('thief@example.com', '7.00', attacker);
    // The thief learns the hash before the chain does (as from a mempool the service's node has not seen).
    const prepared = await prepareTokenTransfer({
      client: chain.publicClient,
      account: shopper(3).privateKey,
      token: busd,
      to: merchant.address as Address,
      amount: parseUnits('7', 18),
    });
    const early = await submit(thief.id, prepared.hash);
    expect([200, 202], early.text).toContain(early.status);
    expect((await submit(victim.id, prepared.hash)).body).toMatchObject({ error_code: 'tx_already_used' });

    await broadcastSignedTransaction({ client: chain.publicClient, serialized: prepared.serialized });
    await chain.publicClient.waitForTransactionReceipt({ hash: prepared.hash, timeout: 30_000 });
    const refused = await waitFor(thief.id, (s) => s.status === 'awaiting_payment' && s.error !== null);
    expect(refused).toMatchObject({
      tx_hash: null,
      error: "The transaction was not sent by this checkout's payer",
    });

    const own = await submit(victim.id, prepared.hash);
    expect(own.status, own.text).toBe(200);
    await waitFor(victim.id, (s) => s.status === 'resolved');
    const paid = (await payments()).filter((p) => p.payment.tx_id === prepared.hash.toLowerCase());
    expect(paid.map((p) => p.user.email)).toEqual(['victim@example.com']);
  });
});
