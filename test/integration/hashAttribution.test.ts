/**
 * A payment belongs to the session its transaction names: a submitted hash is only a hint, refused at once
 * when its transaction carries neither the session's reference nor its exact reserved amount, whoever
 * declared which wallet. A relayer's transfer is the shopper's payment, a stranger's dust carrying a copied
 * reference neither settles the order nor takes its place, and a wallet that strips the reference still pays
 * by the exact amount. Real server and worker, real Temporal, a local EVM chain.
 */
import { broadcastSignedTransaction } from '@checkout/chain';
import type { ResolvedPayment } from '@checkout/core';
import { UnmatchedTransfer } from '@checkout/core';
import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  type Hash,
  type Hex,
  http,
  keccak256,
  parseUnits,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { waitForSession } from '../support/waitFor.ts';

describe.skipIf(databaseUnavailable())('a payment belongs to the session its transaction names', () => {
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
        // Long enough that a short payment never settles while a test still pays the rest.
        CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS: '60',
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
  const receiving = () => merchant.address as Address;

  type Session = {
    id: string;
    status: string;
    tx_hash: string | null;
    error: string | null;
    resolved_payment_id: string | null;
    expected_token_amount: string;
    reference: Hex;
    transaction: { to: Address; data: Hex };
  };

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
    return res.body.session as Session;
  };

  const submit = (sessionId: string, txHash: Hash) =>
    service.request('POST', `/api/v1/checkout/sessions/${sessionId}/transactions`, {
      json: { tx_hash: txHash },
    });

  const session = async (id: string) =>
    (await service.request('GET', `/api/v1/checkout/sessions/${id}`)).body.session as Session;

  const paymentOf = async (s: { resolved_payment_id: string | null }) => {
    const res = await service.request('GET', `/api/v1/products/${product.id}/resolved_payments`, {
      headers: merchant.headers,
    });
    const all = res.body.resolved_payments as ResolvedPayment[];
    return all.filter((p) => p.id === s.resolved_payment_id);
  };

  /** The unmatched transfers of the merchant once `done` holds of them. */
  const unmatched = async (done: (list: UnmatchedTransfer[]) => boolean) => {
    const deadline = Date.now() + 45_000;
    for (;;) {
      const res = await service.request('GET', '/api/v1/unmatched_transfers', { headers: merchant.headers });
      expect(res.status, res.text).toBe(200);
      const list = (res.body.unmatched_transfers as unknown[]).map((u) => UnmatchedTransfer.parse(u));
      if (done(list)) return list;
      if (Date.now() > deadline) throw new Error(`unmatched transfers stayed ${JSON.stringify(list)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  /** `data` to the token from shopper `index`, signed here and not sent: its hash known before the chain's. */
  const signed = async (index: number, data: Hex) => {
    const account = privateKeyToAccount(shopper(index).privateKey);
    const serialized = await account.signTransaction({
      chainId: await chain.publicClient.getChainId(),
      type: 'eip1559',
      nonce: await chain.publicClient.getTransactionCount({ address: account.address, blockTag: 'pending' }),
      gas: 100_000n,
      ...(await chain.publicClient.estimateFeesPerGas()),
      to: busd,
      data,
      value: 0n,
    });
    return { serialized, hash: keccak256(serialized) };
  };

  /** Turns the node's mining of each transaction on (mining what waits) or off. */
  const automine = async (on: boolean) => {
    await chain.publicClient.request({
      method: 'evm_setAutomine' as 'eth_chainId',
      params: [on] as unknown as undefined,
    });
    if (on) await chain.mine(1);
  };

  it('pays each of two orders of one price declaring the same wallet only by what names it', async () => {
    // Two of the merchant's orders at one price both declare the victim's wallet: the declaration decides
    // nothing, each takes only the transaction carrying its own reference.
    const victim = await openSession('victim@example.com', '4.00', shopper(0).address);
    const thief = await openSession('thief@example.com', '4.00', shopper(0).address);
    const victimTx = await chain.send(0, victim.transaction);

    const stolen = await submit(thief.id, victimTx);
    expect(stolen.status, stolen.text).toBe(422);
    expect(stolen.body).toMatchObject({ error_code: 'tx_not_for_session', errors: [{ path: 'tx_hash' }] });
    const own = await submit(victim.id, victimTx);
    expect(own.status, own.text).toBe(200);
    const paid = await waitForSession(service, victim.id, ['resolved']);
    expect(paid.tx_hash).toBe(victimTx.toLowerCase());
    expect(await session(thief.id)).toMatchObject({ status: 'awaiting_payment', tx_hash: null });

    // The same wallet then pays the other order by its own transaction (no hash): that one is its.
    const thiefTx = await chain.send(0, thief.transaction);
    const other = await waitForSession(service, thief.id, ['resolved']);
    expect(other.tx_hash).toBe(thiefTx.toLowerCase());
    const [payment] = await paymentOf(paid);
    const [otherPayment] = await paymentOf(other);
    expect(payment).toMatchObject({
      user: { email: 'victim@example.com' },
      payment: {
        tx_id: victimTx.toLowerCase(),
        sender_address: shopper(0).address,
        amount_difference: '0.0',
      },
    });
    expect(otherPayment).toMatchObject({
      user: { email: 'thief@example.com' },
      payment: { tx_id: thiefTx.toLowerCase(), amount_difference: '0.0' },
    });
  });

  it('refuses a transfer mined before the session opened, even of exactly its amount', async () => {
    const early = await chain.transfer(1, busd, receiving(), parseUnits('5', 18));
    const order = await openSession('late@example.com', '5.00', shopper(1).address);
    // It holds 5.00 exactly, which the earlier transfer is: mined before it, it is not its payment.
    expect(order.expected_token_amount).toBe('5');
    const refused = await submit(order.id, early);
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body).toMatchObject({ error_code: 'tx_before_checkout', errors: [{ path: 'tx_hash' }] });
    // Nor does the look take it: the order's own payment, without its hash, is the one it takes.
    const own = await chain.send(1, order.transaction);
    const paid = await waitForSession(service, order.id, ['resolved']);
    expect(paid.tx_hash).toBe(own.toLowerCase());
  });

  it('takes a hash for a session paid from another device by the same rule: its exact amount pays it', async () => {
    const phone = await openSession('phone@example.com', '6.00', null);
    const other = await chain.transfer(2, busd, receiving(), parseUnits('6', 18));
    const submitted = await submit(phone.id, other);
    expect(submitted.status, submitted.text).toBe(422);
    expect(submitted.body).toMatchObject({ error_code: 'tx_not_for_session' });

    const exact = await chain.transfer(2, busd, receiving(), parseUnits(phone.expected_token_amount, 18));
    const done = await waitForSession(service, phone.id, ['resolved']);
    expect(done.tx_hash).toBe(exact.toLowerCase());
  });

  it('takes a hash the chain does not know yet as a hint only: it claims nothing and stops no one', async () => {
    const victim = await openSession('victim@example.com', '7.00', shopper(3).address);
    const thief = await openSession('thief@example.com', '7.00', shopper(3).address);
    // The thief learns the victim's hash before the chain does (as from a mempool the node has not seen).
    const prepared = await signed(3, victim.transaction.data);
    for (const id of [thief.id, victim.id]) {
      const early = await submit(id, prepared.hash);
      expect(early.status, early.text).toBe(202);
      expect(early.body.session).toMatchObject({ status: 'awaiting_payment', tx_hash: null });
    }
    const claims = await service.db.kysely
      .selectFrom('checkout_transactions')
      .select('session_id')
      .where('tx_hash', '=', prepared.hash.toLowerCase())
      .execute();
    expect(claims).toEqual([]);

    await broadcastSignedTransaction({ client: chain.publicClient, serialized: prepared.serialized });
    await chain.publicClient.waitForTransactionReceipt({ hash: prepared.hash, timeout: 30_000 });
    // Once the chain shows it, it names the victim's session: the thief's is refused, the victim's paid.
    expect((await submit(thief.id, prepared.hash)).body).toMatchObject({ error_code: 'tx_not_for_session' });
    const paid = await waitForSession(service, victim.id, ['resolved']);
    expect(paid.tx_hash).toBe(prepared.hash.toLowerCase());
    expect((await paymentOf(paid)).map((p) => p.user.email)).toEqual(['victim@example.com']);
    expect(await session(thief.id)).toMatchObject({ status: 'awaiting_payment', tx_hash: null });
  });

  it('refuses at once a pending hash that does not name the session', async () => {
    const victim = await openSession('victim@example.com', '7.50', shopper(3).address);
    const thief = await openSession('thief@example.com', '7.50', shopper(3).address);
    // The node stops mining: the victim's payment waits in its pool, where the thief reads its hash.
    await automine(false);
    try {
      const prepared = await signed(3, victim.transaction.data);
      await broadcastSignedTransaction({ client: chain.publicClient, serialized: prepared.serialized });
      expect(await chain.publicClient.getTransaction({ hash: prepared.hash })).toMatchObject({
        blockNumber: null,
      });
      const stolen = await submit(thief.id, prepared.hash);
      expect(stolen.status, stolen.text).toBe(422);
      expect(stolen.body).toMatchObject({ error_code: 'tx_not_for_session', errors: [{ path: 'tx_hash' }] });
      // Nothing was claimed: the victim's session takes its hash while it is still pending.
      const own = await submit(victim.id, prepared.hash);
      expect([200, 202], own.text).toContain(own.status);
    } finally {
      await automine(true);
    }
    const paid = await waitForSession(service, victim.id, ['resolved']);
    expect((await paymentOf(paid)).map((p) => p.user.email)).toEqual(['victim@example.com']);
    expect(await session(thief.id)).toMatchObject({ status: 'awaiting_payment', tx_hash: null });
  });

  it('takes a relayer’s transferFrom carrying the reference as the shopper’s payment', async () => {
    const order = await openSession('relayed@example.com', '3.30', shopper(4).address);
    const amount = parseUnits(order.expected_token_amount, 18);
    // A relayer (a smart account's bundler, a sponsor) moves the shopper's tokens with their approval.
    const relayerKey = generatePrivateKey();
    const relayer = privateKeyToAccount(relayerKey);
    await chain.publicClient.request({
      method: 'hardhat_setBalance' as 'eth_chainId',
      params: [relayer.address, '0x56BC75E2D63100000'] as unknown as undefined,
    });
    const approval = await chain.send(4, {
      to: busd,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [relayer.address, amount] }),
    });
    expect(approval).toMatch(/^0x/);
    const relayed = await createWalletClient({
      account: relayer,
      chain: chain.publicClient.chain!,
      transport: http(chain.chain.rpcUrl),
    }).sendTransaction({
      to: busd,
      data: `${encodeFunctionData({
        abi: erc20Abi,
        functionName: 'transferFrom',
        args: [shopper(4).address, receiving(), amount],
      })}${order.reference.slice(2)}`,
    });
    await chain.publicClient.waitForTransactionReceipt({ hash: relayed, timeout: 30_000 });
    expect((await submit(order.id, relayed)).status).toBe(200);
    const paid = await waitForSession(service, order.id, ['resolved']);
    const [payment] = await paymentOf(paid);
    // The payer is whose tokens paid, not the relayer that sent the transaction.
    expect(payment!.payment).toMatchObject({ sender_address: shopper(4).address, amount_difference: '0.0' });
  });

  it('lets a stranger’s dust carrying a copied reference neither settle the order nor take its place', async () => {
    const order = await openSession('dusted@example.com', '8.00', shopper(0).address);
    // The stranger sends 1 base unit first, with the order's reference copied from the mempool.
    const dust = await chain.transfer(2, busd, receiving(), 1n, { reference: order.reference });
    // The shopper's own payment follows (a closed tab: no hash), and the two add up.
    const own = await chain.send(0, order.transaction);
    const paid = await waitForSession(service, order.id, ['resolved']);
    expect(paid.tx_hash).toBe(own.toLowerCase());
    const [payment] = await paymentOf(paid);
    // Paid in full, not short: the dust counts towards it. The payment is the shopper's transfer (the one
    // that reached the price): its hash and its sender are the payment's, the stranger's dust only adds.
    expect(payment!.payment).toMatchObject({
      tx_id: own.toLowerCase(),
      sender_address: shopper(0).address,
      received_token_amount: '8.000000000000000001',
      amount_difference: '0.0',
    });
    expect(payment!.user.email).toBe('dusted@example.com');
    expect(dust).not.toBe(own);
  });

  it('takes the exact amount from a wallet that strips the reference; another amount without it is unmatched', async () => {
    // Another open session holds the price: this one holds the price and a tail of its own.
    await openSession('holder@example.com', '9.00', shopper(1).address);
    const order = await openSession('stripped@example.com', '9.00', shopper(1).address);
    expect(order.expected_token_amount).not.toBe('9');

    const stray = await chain.transfer(1, busd, receiving(), parseUnits('9.5', 18));
    expect((await submit(order.id, stray)).body).toMatchObject({ error_code: 'tx_not_for_session' });
    await unmatched((list) => list.some((u) => u.tx_hash === stray.toLowerCase()));
    expect(await session(order.id)).toMatchObject({ status: 'awaiting_payment', tx_hash: null });

    const exact = await chain.transfer(1, busd, receiving(), parseUnits(order.expected_token_amount, 18));
    expect((await submit(order.id, exact)).status).toBe(200);
    const paid = await waitForSession(service, order.id, ['resolved']);
    expect(paid.tx_hash).toBe(exact.toLowerCase());
  });
});
