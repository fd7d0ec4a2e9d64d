/**
 * One watcher per chain instead of a scan per open session, on the real stack: the chain's cost does not
 * grow with open sessions, a reorganised transfer is forgotten, and a watcher stopped mid-range resumes
 * without dropping or doubling a transfer. (Closed tabs, two sessions of one shopper and late payments are
 * resolved through the watcher in checkout.test.ts and checkoutDurability.test.ts.)
 */

import { chainWatcherWorkflowId, ensureChainWatchers } from '@checkout/workflows';
import { sql } from 'kysely';
import { type Address, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { randomAddress, startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { waitFor } from '../support/waitFor.ts';

describe.skipIf(databaseUnavailable())('chain watcher', () => {
  let chain: TestChain;
  let service: TestService;
  let merchant: TestMerchant;

  beforeAll(async () => {
    chain = await startTestChain();
    service = await startTestService({
      env: {
        RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl,
        CHAIN_POLL_INTERVAL_MS: '100',
        CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS: '0',
        CHECKOUT_SCAN_INTERVAL_MS: '200',
      },
    });
    merchant = await service.createMerchant();
  });
  afterAll(async () => {
    await service?.stop();
    await chain?.stop();
  });

  const db = () => service.deps.db.kysely;
  const busd = () => chain.deployment.tokens.BUSD.address;
  const shopper = (i: number) => chain.deployment.shoppers[i]!.address;

  const createProduct = async () => {
    const res = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Watched beans',
          email: 'merchant@example.com',
          active: true,
          open_amount: true,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd() },
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.product as { id: string; slug: string };
  };
  const openSession = async (slug: string, sender: string, dollars: string) => {
    const res = await service.request('POST', `/api/v1/checkout/${slug}/sessions`, {
      json: {
        email: 'shopper@example.com',
        custom_fields: {},
        dollar_amount: dollars,
        sender_address: sender,
        token_address: busd(),
      },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.session as { id: string; status: string };
  };
  const sessionStatus = async (id: string) =>
    (await service.request('GET', `/api/v1/checkout/sessions/${id}`)).body.session as {
      status: string;
      tx_hash: string | null;
    };
  /** JSON-RPC calls the service made to the chain so far, from its /metrics. */
  const rpcCalls = async () => {
    const text = (await service.request('GET', '/metrics')).text;
    let total = 0;
    for (const line of text.split('\n')) {
      const m = /^checkout_chain_rpc_requests_total\{[^}]*chain="97"[^}]*\} (\d+)/.exec(line);
      if (m) total += Number(m[1]);
    }
    return total;
  };
  const transfersOf = (txHash: string) =>
    db().selectFrom('chain_transfers').selectAll().where('tx_hash', '=', txHash.toLowerCase()).execute();
  const position = () =>
    db().selectFrom('chain_watch').selectAll().where('chain_id', '=', 97).executeTakeFirstOrThrow();

  it('runs one watcher for the chain, shown in /health, the metrics and the Temporal UI', async () => {
    const health = await waitFor(
      async () => (await service.request('GET', '/health')).body,
      (b) => b.chain_watchers?.[0]?.status === 'ok',
      'the watcher never ticked',
    );
    expect(health.chain_watchers).toEqual([
      expect.objectContaining({ chain_id: 97, name: 'BNB Smart Chain Testnet', status: 'ok', lag_blocks: 0 }),
    ]);
    // The metrics are read apart from health: a block mined between the two shows there until the next tick.
    const metrics = await waitFor(
      async () => (await service.request('GET', '/metrics')).text,
      (text) => /checkout_chain_watcher_lag_blocks\{chain="97"\} 0/.test(text),
      'the metrics never showed the watcher caught up',
    );
    expect(metrics).toMatch(/checkout_chain_rpc_requests_total\{chain="97",method="eth_blockNumber"\} \d+/);
    // The memo follows the tick's commit in the workflow's next task.
    const described = await waitFor(
      () =>
        service.deps
          .temporal!.client.workflow.getHandle(
            chainWatcherWorkflowId(97, service.deps.config.temporal.taskQueue),
          )
          .describe(),
      (d) => d.memo?.next_block !== undefined,
      'the watcher never showed its position',
    );
    expect(described.status.name).toBe('RUNNING');
    expect(await described.staticSummary()).toBe('Chain watcher · BNB Smart Chain Testnet (97)');
    expect(described.memo).toMatchObject({ next_block: expect.any(String), lag_blocks: '0' });
  });

  it('costs the chain the same with 40 open sessions as with none, and still finds a closed tab’s payment', async () => {
    const product = await createProduct();
    await new Promise((r) => setTimeout(r, 500));
    const idleStart = await rpcCalls();
    await new Promise((r) => setTimeout(r, 2_000));
    const idle = (await rpcCalls()) - idleStart;

    const sessions = [];
    for (let i = 0; i < 40; i++) sessions.push(await openSession(product.slug, randomAddress(), '1.00'));
    const payer = await openSession(product.slug, shopper(1), '2.50');
    await new Promise((r) => setTimeout(r, 500));
    const busyStart = await rpcCalls();
    await new Promise((r) => setTimeout(r, 2_000));
    const busy = (await rpcCalls()) - busyStart;
    // A scan per session would make hundreds of calls here (40 sessions × 10 looks × their reads).
    expect(busy, `idle ${idle}, with 41 open sessions ${busy}`).toBeLessThanOrEqual(2 * idle + 4);

    // The shopper closed the tab: the watcher's record finds the payment.
    const tx = await chain.transfer(1, busd(), merchant.address as Address, parseUnits('2.5', 18));
    const done = await waitFor(
      () => sessionStatus(payer.id),
      (s) => s.status === 'resolved',
      'payer session',
    );
    expect(done.tx_hash).toBe(tx.toLowerCase());
    expect(await transfersOf(tx)).toHaveLength(1);
    for (const s of sessions.slice(0, 3)) expect((await sessionStatus(s.id)).status).toBe('awaiting_payment');
  });

  it('forgets a transfer whose block was reorganised away, and pays with the one that stayed', async () => {
    const product = await createProduct();
    const session = await openSession(product.slug, shopper(2), '3.00');
    // Another sender's transfer into the same address: recorded, but not this session's to take.
    const snapshot = await chain.publicClient.request({ method: 'evm_snapshot' as 'eth_chainId' });
    const orphan = await chain.transfer(3, busd(), merchant.address as Address, parseUnits('1', 18));
    await waitFor(
      () => transfersOf(orphan),
      (rows) => rows.length === 1,
      'the transfer was never recorded',
    );
    await chain.publicClient.request({
      method: 'evm_revert' as 'eth_chainId',
      params: [snapshot] as unknown as undefined,
    });
    await chain.mine(3);
    await waitFor(
      () => transfersOf(orphan),
      (rows) => rows.length === 0,
      'the orphaned transfer stayed',
    );
    // The transfers are forgotten first and the new position is written after the range is read again:
    // wait for the position to follow the chain that stayed.
    const followed = await waitFor(
      async () => {
        const at = await position();
        const block = await chain.publicClient.getBlock({ blockNumber: BigInt(at.next_block) - 1n });
        return { recorded: at.last_block_hash, chain: block.hash.toLowerCase() };
      },
      (v) => v.recorded === v.chain,
      'the position never followed the chain that stayed',
    );
    expect(followed.recorded).toMatch(/^0x[0-9a-f]{64}$/);

    const tx = await chain.transfer(2, busd(), merchant.address as Address, parseUnits('3', 18));
    const done = await waitFor(
      () => sessionStatus(session.id),
      (s) => s.status === 'resolved',
      'session',
    );
    expect(done.tx_hash).toBe(tx.toLowerCase());
  });

  it('resumes where it stopped: a range read again records no transfer twice and resolves each checkout once', async () => {
    const product = await createProduct();
    const client = service.deps.temporal!.client;
    const watcher = client.workflow.getHandle(
      chainWatcherWorkflowId(97, service.deps.config.temporal.taskQueue),
    );
    const a = await openSession(product.slug, shopper(4), '4.00');
    const b = await openSession(product.slug, shopper(0), '5.00');
    await waitFor(
      async () => (await db().selectFrom('chain_watch_addresses').selectAll().execute()).length,
      (n) => n > 0,
      'address never watched',
    );
    // The watcher stops; payments arrive in three blocks meanwhile.
    await watcher.terminate('test: a watcher killed mid-range');
    const from = BigInt((await position()).next_block);
    const paidA = await chain.transfer(4, busd(), merchant.address as Address, parseUnits('4', 18));
    const other = await chain.transfer(3, busd(), merchant.address as Address, parseUnits('7', 18));
    const paidB = await chain.transfer(0, busd(), merchant.address as Address, parseUnits('5', 18));
    expect((await sessionStatus(a.id)).status).toBe('awaiting_payment');

    // Started again, it reads from where the last commit left it.
    await ensureChainWatchers(client, {
      taskQueue: service.deps.config.temporal.taskQueue,
      chains: [{ chainId: 97, name: 'BNB Smart Chain Testnet' }],
    });
    for (const s of [a, b])
      await waitFor(
        () => sessionStatus(s.id),
        (x) => x.status === 'resolved',
        'session',
      );
    expect((await sessionStatus(a.id)).tx_hash).toBe(paidA.toLowerCase());
    expect((await sessionStatus(b.id)).tx_hash).toBe(paidB.toLowerCase());

    // As if a tick died after reading and before committing: the same range is read once more.
    const lastPaid = (await chain.publicClient.getTransactionReceipt({ hash: paidB })).blockNumber;
    const resetAt = new Date();
    await db()
      .updateTable('chain_watch')
      .set({ next_block: from.toString(), last_block_hash: null })
      .where('chain_id', '=', 97)
      .execute();
    await waitFor(
      async () => ({
        at: (await position()).updated_at,
        readTo: (await db().selectFrom('chain_watch_status').selectAll().executeTakeFirstOrThrow())
          .read_to_block,
      }),
      (p) => p.at > resetAt && BigInt(p.readTo ?? -1) >= lastPaid,
      'the range was not read again',
    );
    for (const tx of [paidA, other, paidB]) expect(await transfersOf(tx)).toHaveLength(1);
    const resolved = await db()
      .selectFrom('resolved_payments')
      .select(sql<number>`count(*)`.as('n'))
      .where('product_id', '=', product.id)
      .executeTakeFirstOrThrow();
    expect(Number(resolved.n)).toBe(2);
  });
});
