/**
 * Paying from another device on a chain in `deposit_address` mode: each session opened without a payer
 * gets its own deposit address (a forwarder's CREATE2 address that can only pay the merchant), and any
 * amount of the product's token sent there (rounded, net of an exchange's fee, typed by hand) resolves that
 * session with its signed `amount_difference`; the sweep moves it to the merchant.
 */
import { erc20Abi } from '@checkout/chain';
import { percentDifference, type ResolvedPayment, type UnmatchedTransfer } from '@checkout/core';
import { listClaimedSweeps, listSweepableDeposits, sweepGasOfSession } from '@checkout/db';
import { type Address, type Hex, parseTransaction, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { waitFor, waitForSession } from '../support/waitFor.ts';

interface Session {
  id: string;
  status: string;
  reference: string;
  expected_token_amount: string;
  receiving_address: string;
  deposit_address: string | null;
  payment_uri: string | null;
  transaction: { to: string; data: string } | null;
  tx_hash: string | null;
  /** The opener's secret (from the create response). */
  secret: string;
}

describe.skipIf(databaseUnavailable())('checkout paid to a deposit address (another device)', () => {
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
        PHONE_PAYMENT_MODE_BINANCE_SMART_CHAIN_TESTNET: 'deposit_address',
        CHAIN_POLL_INTERVAL_MS: '100',
        CHECKOUT_GRACE_MINUTES: '1',
        CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS: '1',
        CHECKOUT_SCAN_INTERVAL_MS: '100',
        SWEEP_REPLACE_AFTER_SECONDS: '4',
      },
    });
    merchant = await service.createMerchant();
  });
  afterAll(async () => {
    await service?.stop();
    await chain?.stop();
  });

  const createProduct = async () => {
    const res = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Tea',
          email: 'merchant@example.com',
          active: true,
          send_webhook: false,
          send_email: false,
          open_amount: true,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd },
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.product as { id: string; slug: string };
  };

  const openPayerless = async (slug: string, dollarAmount: string) => {
    const res = await service.request('POST', `/api/v1/checkout/${slug}/sessions`, {
      json: { email: 'shopper@example.com', token_address: busd, dollar_amount: dollarAmount },
    });
    expect(res.status, res.text).toBe(200);
    return { ...res.body.session, secret: res.body.client_secret } as Session;
  };

  const resolvedPayments = async (productId: string) => {
    const res = await service.request('GET', `/api/v1/products/${productId}/resolved_payments`, {
      headers: merchant.headers,
    });
    expect(res.status).toBe(200);
    return res.body.resolved_payments as ResolvedPayment[];
  };

  const balance = (owner: string, token: Address = busd) =>
    chain.publicClient.readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [owner as Address],
    });

  const unmatched = async () =>
    (await service.request('GET', '/api/v1/unmatched_transfers', { headers: merchant.headers })).body
      .unmatched_transfers as UnmatchedTransfer[];

  /** Until every deposit recorded so far is swept and mined (the sweeper sends one sweep at a time). */
  const depositsSwept = () =>
    waitFor(
      async () => ({
        sweepable: await listSweepableDeposits(service.deps.db.kysely, {
          chainId: 97,
          confirmedBlock: await chain.publicClient.getBlockNumber({ cacheTime: 0 }),
          limit: 10,
        }),
        claimed: await listClaimedSweeps(service.deps.db.kysely, 97),
      }),
      (left) => left.sweepable.length === 0 && left.claimed.length === 0,
      'the deposits so far swept',
    );

  it('resolves a rounded, a net-of-fee and a hand-typed amount, each with its signed difference, and the sweep pays the merchant', async () => {
    const product = await createProduct();
    const price = '12.34';
    const sessions = [
      await openPayerless(product.slug, price),
      await openPayerless(product.slug, price),
      await openPayerless(product.slug, price),
    ];
    const addresses = sessions.map((s) => s.deposit_address);
    expect(new Set(addresses).size).toBe(3);
    for (const s of sessions) {
      // No tail: the address, not the amount, says which session a transfer pays.
      expect(s.expected_token_amount).toBe('12.34');
      expect(s.deposit_address).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(s.receiving_address).toBe(merchant.address);
      expect(s.payment_uri).toBe(
        `ethereum:${busd}@97/transfer?address=${s.deposit_address}&uint256=${parseUnits(price, 18)}`,
      );
      // A browser wallet's transaction pays the deposit address too.
      expect(s.transaction?.data.toLowerCase()).toContain(s.deposit_address!.slice(2).toLowerCase());
    }
    const read = await service.request('GET', `/api/v1/checkout/sessions/${sessions[0]!.id}`);
    expect(read.body.session.deposit_address).toBe(sessions[0]!.deposit_address);

    // A wallet that rounds up, an exchange that takes its 0.80 fee out, a shopper who types 12.3.
    const amounts = [parseUnits('12.35', 18), parseUnits('11.54', 18), parseUnits('12.3', 18)];
    const hashes: string[] = [];
    for (const [i, s] of sessions.entries()) {
      hashes.push(await chain.transfer(i + 1, busd, s.deposit_address as Address, amounts[i]!));
    }
    const done = await Promise.all(sessions.map((s) => waitForSession(service, s.id, ['resolved'])));
    expect(done.map((s) => s.tx_hash)).toEqual(hashes.map((h) => h.toLowerCase()));
    const payments = new Map((await resolvedPayments(product.id)).map((p) => [p.payment.tx_id, p.payment]));
    const expected = parseUnits(price, 18);
    for (const [i, hash] of hashes.entries()) {
      expect(payments.get(hash.toLowerCase())).toMatchObject({
        received_token_amount: ['12.35', '11.54', '12.3'][i],
        amount_difference: percentDifference(expected, amounts[i]!),
        sender_address: chain.deployment.shoppers[i + 1]!.address,
        receiving_address: merchant.address,
        exception_status: i === 0 ? 'paid_over' : 'paid_partially',
      });
    }
    expect(percentDifference(expected, amounts[1]!)).toMatch(/^-6\.483/);

    // The sweeper moves all three to the merchant in one transaction, from the gas wallet, and records the
    // gas each payment cost; the sweep is neither a payment nor an unmatched transfer.
    const total = amounts.reduce((a, b) => a + b, 0n);
    await waitFor(
      () => balance(merchant.address),
      (held) => held >= total,
      'the merchant holds the swept payments',
    );
    for (const s of sessions) expect(await balance(s.deposit_address!)).toBe(0n);
    const sweeps = await waitFor(
      () =>
        service.deps.db.kysely
          .selectFrom('deposit_sweep_sessions as ss')
          .innerJoin('deposit_sweeps as w', 'w.id', 'ss.sweep_id')
          .select(['w.tx_hash', 'w.status', 'w.gas_used', 'ss.session_id', 'ss.gas_spent'])
          .where(
            'ss.session_id',
            'in',
            sessions.map((s) => s.id),
          )
          .execute(),
      (rows) => rows.length === 3 && rows.every((r) => r.status === 'mined'),
      'the sweep recorded as mined',
    );
    expect(new Set(sweeps.map((r) => r.tx_hash)).size).toBe(1);
    for (const r of sweeps) expect(BigInt(r.gas_spent!)).toBeGreaterThan(0n);
    console.log(`gas: one sweep of 3 deposit addresses (deploy + sweep) ${sweeps[0]!.gas_used}`);
    const receipt = await chain.publicClient.getTransactionReceipt({ hash: sweeps[0]!.tx_hash as Hex });
    const sweepBlock = receipt.blockNumber;
    // Each payment shows its share of the receipt's fee: equal shares in wei, the last session (by id) takes
    // the remainder, and the shares add up to the fee exactly.
    const fee = receipt.gasUsed * receipt.effectiveGasPrice;
    const byId = [...sessions].sort((a, b) => (a.id < b.id ? -1 : 1));
    const shares = byId.map((s, i) => [s.id, i < 2 ? fee / 3n : fee - (fee / 3n) * 2n] as const);
    const listed = new Map((await resolvedPayments(product.id)).map((p) => [p.payment.tx_id, p]));
    for (const [sessionId, share] of shares) {
      const paid = listed.get(hashes[sessions.findIndex((s) => s.id === sessionId)]!.toLowerCase())!;
      expect(paid.payment.sweep_gas_wei).toBe(share.toString());
      const one = await service.request('GET', `/api/v1/resolved_payments/${paid.id}`, {
        headers: merchant.headers,
      });
      expect(one.body.resolved_payment.payment.sweep_gas_wei).toBe(share.toString());
      const timeline = await service.request('GET', `/api/v1/resolved_payments/${paid.id}/timeline`, {
        headers: merchant.headers,
      });
      expect(timeline.status, timeline.text).toBe(200);
      expect(timeline.body.timeline.filter((e: { type: string }) => e.type === 'deposit_swept')).toEqual([
        expect.objectContaining({
          chain_id: 97,
          tx_hash: receipt.transactionHash,
          status: 'mined',
          gas_used: receipt.gasUsed.toString(),
          gas_price_wei: receipt.effectiveGasPrice.toString(),
          gas_spent_wei: share.toString(),
        }),
      ]);
    }
    await chain.mine(3);
    await waitFor(
      () =>
        service.deps.db.kysely
          .selectFrom('chain_watch_status')
          .select('read_to_block')
          .where('chain_id', '=', 97)
          .executeTakeFirst(),
      (row) => row?.read_to_block != null && BigInt(row.read_to_block) >= sweepBlock,
      'the watcher reads past the sweep',
    );
    const recorded = await service.deps.db.kysely
      .selectFrom('chain_transfers')
      .select('tx_hash')
      .where('tx_hash', '=', sweeps[0]!.tx_hash)
      .execute();
    expect(recorded).toEqual([]);
    // /health shows the gas wallet and what the sweeps cost; /metrics too.
    const health = (await service.request('GET', '/health')).body as {
      deposit_sweepers: Array<{ chain_id: number; status: string; sweeps: number; gas_spent: string }>;
    };
    const sweeper = health.deposit_sweepers.find((w) => w.chain_id === 97);
    expect(sweeper).toMatchObject({ status: 'ok' });
    expect(sweeper!.sweeps).toBeGreaterThanOrEqual(1);
    expect(Number(sweeper!.gas_spent)).toBeGreaterThan(0);
    const metrics = (await service.request('GET', '/metrics')).text;
    expect(metrics).toMatch(/checkout_deposit_sweep_gas_spent_wei\{chain="97"\} [1-9]/);
    expect(metrics).toMatch(/checkout_deposit_sweeper_balance_wei\{chain="97"\} [1-9]/);
  });

  it('counts a second transfer to a paid deposit address as paid twice, and another token there as unmatched', async () => {
    const product = await createProduct();
    const session = await openPayerless(product.slug, '3.00');
    const first = await chain.transfer(1, busd, session.deposit_address as Address, parseUnits('3', 18));
    const paid = await waitForSession(service, session.id, ['resolved']);
    expect(paid.tx_hash).toBe(first.toLowerCase());
    const second = await chain.transfer(2, busd, session.deposit_address as Address, parseUnits('3', 18));
    const usdc = chain.deployment.tokens.USDC.address;
    const other = await chain.transfer(2, usdc, session.deposit_address as Address, 3_000_000n);
    const both = await waitFor(
      unmatched,
      (rows) => [second, other].every((h) => rows.some((r) => r.tx_hash === h.toLowerCase())),
      'both transfers recorded as unmatched',
      40_000,
    );
    expect(both.find((r) => r.tx_hash === second.toLowerCase())).toMatchObject({
      kind: 'duplicate',
      resolved_payment_id: paid.resolved_payment_id,
    });
    const payment = await waitFor(
      async () => (await resolvedPayments(product.id)).find((p) => p.id === paid.resolved_payment_id),
      (p) => p?.payment.exception_status === 'paid_twice',
      'the payment flagged paid twice',
      20_000,
    );
    expect(payment?.payment.exception_status).toBe('paid_twice');
  }, 90_000);

  it('keeps the deposit address and session of a transfer no session takes there, and sweeps it to the merchant', async () => {
    const db = service.deps.db.kysely;
    const usdc = chain.deployment.tokens.USDC.address;
    const product = await createProduct();
    await depositsSwept();
    const before = { busd: await balance(merchant.address), usdc: await balance(merchant.address, usdc) };
    // One session paid; another closed by its opener, and its grace long over (as if closed two hours ago).
    const paid = await openPayerless(product.slug, '2.00');
    await chain.transfer(1, busd, paid.deposit_address as Address, parseUnits('2', 18));
    await waitForSession(service, paid.id, ['resolved']);
    const closed = await openPayerless(product.slug, '4.00');
    const close = await service.request('POST', `/api/v1/checkout/sessions/${closed.id}/close`, {
      headers: { 'X-Client-Secret': closed.secret },
    });
    expect(close.status, close.text).toBe(200);
    await waitForSession(service, closed.id, ['closed']);
    const longAgo = new Date(Date.now() - 2 * 3_600_000);
    await db
      .updateTable('checkout_sessions')
      .set({ updated_at: longAgo })
      .where('id', '=', closed.id)
      .execute();

    // Another token to the paid session's address; the closed one's amount, paid late to its address.
    const other = await chain.transfer(2, usdc, paid.deposit_address as Address, 1_500_000n);
    const late = await chain.transfer(3, busd, closed.deposit_address as Address, parseUnits('4', 18));
    const rows = await waitFor(
      unmatched,
      (list) => [other, late].every((h) => list.some((r) => r.tx_hash === h.toLowerCase())),
      'both transfers recorded as unmatched',
    );
    const byHash = (h: string) => rows.find((r) => r.tx_hash === h.toLowerCase())!;
    // Listed under the merchant's receiving address, where the forwarder sweeps it, with the address it came to.
    expect(byHash(other)).toMatchObject({
      receiving_address: merchant.address,
      deposit_address: paid.deposit_address,
      deposit_session_id: paid.id,
      token: { address: usdc },
      amount: '1.5',
    });
    expect(byHash(other).near_sessions.map((n) => n.session_id)).toEqual([paid.id]);
    expect(byHash(late)).toMatchObject({
      kind: 'closed_attempt',
      receiving_address: merchant.address,
      deposit_address: closed.deposit_address,
      deposit_session_id: closed.id,
    });
    expect(byHash(late).near_sessions.map((n) => n.session_id)).toEqual([closed.id]);
    // The closed session was past its grace all along: only the deposit address's own watch saw the transfer.
    const still = await db
      .selectFrom('checkout_sessions')
      .select(['status', 'updated_at'])
      .where('id', '=', closed.id)
      .executeTakeFirstOrThrow();
    expect(still).toEqual({ status: 'closed', updated_at: longAgo });

    // Nothing is stranded: both addresses are swept, every token, and the merchant holds each amount once.
    await depositsSwept();
    for (const address of [paid.deposit_address!, closed.deposit_address!]) {
      expect(await balance(address)).toBe(0n);
      expect(await balance(address, usdc)).toBe(0n);
    }
    expect((await balance(merchant.address)) - before.busd).toBe(parseUnits('6', 18));
    expect((await balance(merchant.address, usdc)) - before.usdc).toBe(1_500_000n);
  }, 90_000);

  it('sends a claimed sweep whose outcome is unknown once more, and pays the merchant once', async () => {
    const rpc = chain.publicClient.request as (args: {
      method: string;
      params: unknown[];
    }) => Promise<unknown>;
    const db = service.deps.db.kysely;
    const product = await createProduct();
    const session = await openPayerless(product.slug, '2.00');
    const amount = parseUnits('2', 18);
    // The sweeper sends one sweep at a time. Every deposit of the earlier cases is swept and mined first:
    // a sweep sent after blocks are mined by hand would stay pending and hold the sweeper behind it.
    await depositsSwept();
    const before = await balance(merchant.address);
    const sweepOf = () =>
      db
        .selectFrom('deposit_sweep_sessions as ss')
        .innerJoin('deposit_sweeps as w', 'w.id', 'ss.sweep_id')
        .select(['w.id', 'w.tx_hash', 'w.status', 'w.broadcasts'])
        .where('ss.session_id', '=', session.id)
        .execute();
    const inPool = async (hash: string) =>
      (await rpc({ method: 'eth_getTransactionByHash', params: [hash] })) !== null;
    // Blocks are mined by hand from here: the sweep stays pending, then the node loses it.
    await rpc({ method: 'evm_setAutomine', params: [false] });
    try {
      const sent = chain.transfer(1, busd, session.deposit_address as Address, amount);
      await waitFor(
        () => rpc({ method: 'eth_getBlockByNumber', params: ['pending', false] }),
        (block) => ((block as { transactions: unknown[] }).transactions ?? []).length > 0,
        'the payment is pending',
      );
      await rpc({ method: 'evm_mine', params: [] });
      await sent;
      const [claimed] = await waitFor(
        async () => {
          const rows = await sweepOf();
          return rows.length === 1 && (await inPool(rows[0]!.tx_hash)) ? rows : [];
        },
        (rows) => rows.length === 1,
        'the sweep claimed and sent',
      );
      expect(claimed).toMatchObject({ status: 'claimed', broadcasts: 1 });
      // The node forgets it, as a crash between the claim and the send would leave it: never sent.
      expect(await rpc({ method: 'hardhat_dropTransaction', params: [claimed!.tx_hash] })).toBe(true);
      expect(await inPool(claimed!.tx_hash)).toBe(false);
      // The next round finds its outcome unknown and sends the same signed bytes once more.
      await waitFor(
        async () => ({ rows: await sweepOf(), pooled: await inPool(claimed!.tx_hash) }),
        ({ rows, pooled }) => pooled && rows.length === 1 && rows[0]!.broadcasts === 2,
        'the same signed sweep sent once more',
      );
      await rpc({ method: 'evm_mine', params: [] });
    } finally {
      await rpc({ method: 'evm_setAutomine', params: [true] });
    }
    const settled = await waitFor(
      sweepOf,
      (rows) => rows.some((r) => r.status === 'mined'),
      'the sweep mined',
    );
    // One sweep, sent twice as the same transaction, mined once: the merchant is paid exactly once.
    expect(settled).toHaveLength(1);
    expect(settled[0]).toMatchObject({ status: 'mined', broadcasts: 2 });
    expect((await balance(merchant.address)) - before).toBe(amount);
    expect(await balance(session.deposit_address!)).toBe(0n);
    const gas = await sweepGasOfSession(db, session.id);
    expect(gas.sweeps).toBe(1);
    expect(gas.gasSpent).toBeGreaterThan(0n);
  }, 120_000);
  it('resolves a swap whose output goes to the deposit address of a session turned to a wallet, and sweeps it to the merchant', async () => {
    const product = await createProduct();
    const dai = chain.deployment.tokens.DAI.address;
    const shown = await openPayerless(product.slug, '7.25');
    // The shopper connects a wallet holding DAI on the page that showed the QR code: the opener turns the
    // session to that wallet and token, and it keeps its deposit address.
    const shopper = chain.deployment.shoppers[4]!.address;
    const res = await service.request('POST', `/api/v1/checkout/${product.slug}/sessions`, {
      headers: { 'X-Client-Secret': shown.secret },
      json: {
        email: 'shopper@example.com',
        expected_payment_id: (shown as Session & { expected_payment_id: string }).expected_payment_id,
        sender_address: shopper,
        token_address: dai,
      },
    });
    expect(res.status, res.text).toBe(200);
    const session = res.body.session as Session;
    expect(session).toMatchObject({
      id: shown.id,
      deposit_address: shown.deposit_address,
      transaction: null,
      expected_token_amount: '7.25',
    });
    await depositsSwept();
    const before = await balance(merchant.address);
    // The element's swap: exactly the amount of BUSD out, to the deposit address, the reference appended.
    const tx = await chain.swapExactOut(
      4,
      dai,
      busd,
      parseUnits('7.25', 18),
      session.deposit_address as Address,
      session.reference,
    );
    const paid = await waitForSession(service, session.id, ['resolved']);
    expect(paid.tx_hash).toBe(tx.toLowerCase());
    const payment = (await resolvedPayments(product.id)).find((p) => p.id === paid.resolved_payment_id);
    expect(payment?.payment).toMatchObject({
      swapped: true,
      amount_difference: '0.0',
      received_token_amount: '7.25',
      sender_address: shopper,
      receiving_address: merchant.address,
    });
    await depositsSwept();
    expect(await balance(session.deposit_address!)).toBe(0n);
    expect((await balance(merchant.address)) - before).toBe(parseUnits('7.25', 18));
  }, 90_000);

  it('replaces a sweep the chain keeps pending with the same nonce at a higher price, and pays the merchant once', async () => {
    const rpc = chain.publicClient.request as (args: {
      method: string;
      params: unknown[];
    }) => Promise<unknown>;
    const db = service.deps.db.kysely;
    const product = await createProduct();
    const session = await openPayerless(product.slug, '3.00');
    const amount = parseUnits('3', 18);
    await depositsSwept();
    const before = await balance(merchant.address);
    const sweepOf = () =>
      db
        .selectFrom('deposit_sweep_sessions as ss')
        .innerJoin('deposit_sweeps as w', 'w.id', 'ss.sweep_id')
        .select(['w.id', 'w.tx_hash', 'w.nonce', 'w.status', 'w.raw_transaction'])
        .where('ss.session_id', '=', session.id)
        .orderBy('w.created_at')
        .execute();
    // Blocks are mined by hand from here: the sweep stays pending until the sweeper replaces it.
    await rpc({ method: 'evm_setAutomine', params: [false] });
    let replaced: Awaited<ReturnType<typeof sweepOf>>;
    try {
      const sent = chain.transfer(1, busd, session.deposit_address as Address, amount);
      await waitFor(
        () => rpc({ method: 'eth_getBlockByNumber', params: ['pending', false] }),
        (block) => ((block as { transactions: unknown[] }).transactions ?? []).length > 0,
        'the payment is pending',
      );
      await rpc({ method: 'evm_mine', params: [] });
      await sent;
      replaced = await waitFor(sweepOf, (rows) => rows.length === 2, 'the pending sweep replaced');
      // The replacement is claimed before it is sent: the next block is mined once the pool holds it.
      const replacement = replaced[1]!.tx_hash!.toLowerCase();
      await waitFor(
        () => rpc({ method: 'eth_getBlockByNumber', params: ['pending', false] }),
        (block) =>
          ((block as { transactions: string[] }).transactions ?? []).some(
            (hash) => hash.toLowerCase() === replacement,
          ),
        'the replacement in the pool',
      );
    } finally {
      await rpc({ method: 'evm_setAutomine', params: [true] });
    }
    await rpc({ method: 'evm_mine', params: [] });
    const [first, second] = replaced;
    expect(second!.nonce).toBe(first!.nonce);
    const price = (raw: string) => parseTransaction(raw as Hex).gasPrice!;
    expect(price(second!.raw_transaction)).toBeGreaterThanOrEqual(
      (price(first!.raw_transaction) * 9n + 7n) / 8n,
    );
    const settled = await waitFor(
      sweepOf,
      (rows) => rows.every((r) => r.status !== 'claimed'),
      'both claims of the nonce settled',
    );
    expect(settled.map((r) => r.status)).toEqual(['dropped', 'mined']);
    const receipt = await chain.publicClient.getTransactionReceipt({ hash: second!.tx_hash as Hex });
    expect(receipt.status).toBe('success');
    expect((await balance(merchant.address)) - before).toBe(amount);
    expect(await balance(session.deposit_address!)).toBe(0n);
    const gas = await sweepGasOfSession(db, session.id);
    expect(gas).toEqual({ sweeps: 1, gasSpent: receipt.gasUsed * receipt.effectiveGasPrice });
  }, 90_000);
});
