/**
 * The chain watcher against RPC providers that misbehave, through a fault-injecting JSON-RPC proxy in
 * front of the dev chain (two proxies: the chain's two configured endpoints). For each fault, shoppers
 * who closed their tab (payer known, no hash submitted) and shoppers paying from a phone (an exact
 * amount, any sender) pay while it lasts; every one of them resolves, once, with its own transfer, during
 * the fault or once it is over. /health tells the truth while it lasts, and no log line carries the
 * providers' keys.
 *
 * The outage lasts 25 s here (the chaos script's `--rpc-faults` holds it 2 minutes): longer than fifty
 * ticks (0.5 s), than the watcher's longest retry interval (10 s) and than an endpoint's longest rest
 * (10 s), so what resumes the watcher is its own recovery, not a retry that happened to fall after it.
 */
import { Writable } from 'node:stream';
import { createLogger } from '@checkout/server';
import { type Address, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { type RpcFaults, type RpcProxy, startRpcProxy } from '../support/rpc/rpcProxy.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { waitFor, waitForBlockRead } from '../support/waitFor.ts';

interface Session {
  id: string;
  expected_payment_id: string;
  status: string;
  expected_token_amount: string;
  tx_hash: string | null;
}

describe.skipIf(databaseUnavailable())('the chain watcher against misbehaving RPC providers', () => {
  let chain: TestChain;
  let first: RpcProxy;
  let second: RpcProxy;
  let service: TestService;
  let merchant: TestMerchant;
  let slug: string;
  const lines: string[] = [];
  let cents = 100;

  beforeAll(async () => {
    chain = await startTestChain();
    [first, second] = await Promise.all([
      startRpcProxy(chain.chain.rpcUrl),
      startRpcProxy(chain.chain.rpcUrl),
    ]);
    const logs = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    service = await startTestService({
      logger: createLogger('debug', logs),
      env: {
        RPC_URL_BINANCE_SMART_CHAIN_TESTNET: `${first.url},${second.url}`,
        CHAIN_POLL_INTERVAL_MS: '200',
        CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS: '0',
        CHECKOUT_SCAN_INTERVAL_MS: '500',
        BLOCK_TIME_MS_BINANCE_SMART_CHAIN_TESTNET: '250',
        CHAIN_WATCHER_MAX_LAG_BLOCKS: '20',
        // The cases read their sessions through the public API every 100 ms for minutes: the public limit
        // (300 a minute per client) is not what they measure.
        PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000',
      },
    });
    merchant = await service.createMerchant();
    const product = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Beans under faults',
          email: 'merchant@example.com',
          active: true,
          open_amount: true,
          send_email: false,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd() },
        },
      },
    });
    expect(product.status, product.text).toBe(200);
    slug = product.body.product.slug;
  });
  afterAll(async () => {
    await service?.stop();
    await Promise.all([first?.close(), second?.close()]);
    await chain?.stop();
  });

  const busd = () => chain.deployment.tokens.BUSD.address;
  const health = async () => (await service.request('GET', '/health')).body;
  const watcher = async () => (await health()).chain_watchers[0];
  const metrics = async () => (await service.request('GET', '/metrics')).text;
  const setFaults = (a: RpcFaults, b: RpcFaults = a) => {
    first.set(a);
    second.set(b);
  };
  const open = async (body: Record<string, unknown>) => {
    const res = await service.request('POST', `/api/v1/checkout/${slug}/sessions`, {
      json: { email: 'shopper@example.com', custom_fields: {}, token_address: busd(), ...body },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.session as Session;
  };
  const sessionOf = async (id: string) =>
    (await service.request('GET', `/api/v1/checkout/sessions/${id}`)).body.session as Session;

  /**
   * Two closed tabs (shoppers 1 and 2, each a price of its own) and two phone payments (exact amounts,
   * sent by shopper 3) open before the fault and pay while it lasts; `during` runs with the fault on.
   * Returns how each resolved: every one resolved, by its own transfer, and no expected payment twice.
   */
  async function trial(fault: () => unknown, during: (paid: string[]) => Promise<void>) {
    const dollars = () => `${Math.floor(++cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
    const tabs = await Promise.all(
      [1, 2].map(async (i) => ({
        i,
        session: await open({
          dollar_amount: dollars(),
          sender_address: chain.deployment.shoppers[i]!.address,
        }),
      })),
    );
    const phones = await Promise.all(
      [0, 1].map(async () => ({ i: 3, session: await open({ dollar_amount: dollars() }) })),
    );
    // Each fault starts with the watcher caught up: what it reads during the fault is the payments, not a
    // backlog an earlier case left (a hundred blocks read through 429s would eat the fault's time).
    await waitForBlockRead(service.deps.db.kysely, 97, await chain.publicClient.getBlockNumber());
    await fault();
    const paid: string[] = [];
    for (const { i, session } of [...tabs, ...phones]) {
      const hash = await chain.transfer(
        i,
        busd(),
        merchant.address as Address,
        parseUnits(session.expected_token_amount, 18),
      );
      paid.push(hash);
    }
    await during(paid);
    setFaults({});
    const all = [...tabs, ...phones];
    const done = await Promise.all(
      all.map(({ session }) =>
        waitFor(
          () => sessionOf(session.id),
          (s) => s.status === 'resolved',
          `session ${session.id}`,
          90_000,
        ),
      ),
    );
    expect(done.map((s) => s.tx_hash)).toEqual(paid.map((h) => h.toLowerCase()));
    const payments = await service.deps.db.kysely
      .selectFrom('resolved_payments')
      .select('expected_payment_id')
      .where(
        'expected_payment_id',
        'in',
        all.map(({ session }) => session.expected_payment_id),
      )
      .execute();
    expect(payments).toHaveLength(all.length);
  }

  /** Waits until the watcher recorded every transfer of `hashes`. */
  const recorded = (hashes: string[]) =>
    waitFor(
      () =>
        service.deps.db.kysely
          .selectFrom('chain_transfers')
          .select('tx_hash')
          .where(
            'tx_hash',
            'in',
            hashes.map((h) => h.toLowerCase()),
          )
          .execute(),
      (rows) => rows.length === hashes.length,
      'the transfers were not all recorded under the fault',
    );
  /** Sum of a counter's series whose labels match `labels`. */
  const counted = async (name: string, labels: RegExp) => {
    let total = 0;
    for (const line of (await metrics()).split('\n')) {
      const m = new RegExp(`^${name}\\{([^}]*)\\} (\\d+)`).exec(line);
      if (m && labels.test(m[1]!)) total += Number(m[2]);
    }
    return total;
  };

  it('reads around range and result limits, learning what each endpoint serves', async () => {
    await trial(
      async () => {
        setFaults(
          { rangeLimit: { blocks: 4, style: 'quicknode' } },
          { rangeLimit: { blocks: 4, style: 'ankr' } },
        );
        // Sessions wait while the chain moves on: the watcher's ranges grow wider than the limit.
        await chain.mine(30);
      },
      async (paid) => {
        await recorded(paid);
        const minedAt = Date.now();
        await chain.mine(30);
        await waitFor(
          watcher,
          (w) => Date.parse(w.head_seen_at) > minedAt && w.status === 'ok' && w.lag_blocks === 0,
          'the watcher did not catch up',
        );
      },
    );
    await trial(
      () => setFaults({ resultLimit: 1 }),
      async (paid) => {
        await recorded(paid);
        expect(first.stats().refused.results ?? 0, 'the result cap was never met').toBeGreaterThan(0);
        expect(await counted('checkout_chain_rpc_errors_total', /kind="log_results"/)).toBeGreaterThan(0);
      },
    );
    // Learnt by the preferred endpoint itself: the second one was never needed.
    expect(first.stats().refused.range ?? 0, 'the range limit was never met').toBeGreaterThan(0);
    expect(
      await counted('checkout_chain_rpc_errors_total', /method="eth_getLogs",kind="log_range",endpoint="1"/),
    ).toBeGreaterThan(0);
  });

  it('waits out a rate limit without asking before its Retry-After', async () => {
    // A limit the service meets now and then: answered within it, resting after each 429.
    await trial(
      () => setFaults({ rateLimit: { perSecond: 10, retryAfterSeconds: 1 } }),
      async (paid) => {
        await recorded(paid);
      },
    );
    expect(await counted('checkout_chain_rpc_errors_total', /kind="rate_limited"/)).toBeGreaterThan(0);
    // A limit nothing passes: health says so, and once an endpoint has answered 429, nobody asks it again
    // before the time it gave (the watcher's own retries come every few tenths of a second, the checkouts'
    // too). Two 429s of one endpoint are either calls that were on their way together, before the service
    // read the first, or at least the Retry-After apart; and each endpoint is asked again once it has passed.
    const retryAfterMs = 4_000;
    const together = 250;
    setFaults({ rateLimit: { perSecond: 0, retryAfterSeconds: retryAfterMs / 1000 } });
    const since = [first, second].map((p) => p.rateLimitedAt().length);
    const failing = await waitFor(
      watcher,
      (w) => w.status === 'failing',
      'health never showed the rate limit',
    );
    expect(failing.error.kind).toBe('rate_limited');
    expect((await health()).status).toBe('degraded');
    const gapsOf = (at: number[]) => at.slice(1).map((t, i) => t - at[i]!);
    const gaps = await waitFor(
      async () => [first, second].map((p, i) => gapsOf(p.rateLimitedAt().slice(since[i]))),
      (each) => each.every((g) => g.some((gap) => gap >= together)),
      'an endpoint was never asked again',
    );
    for (const g of gaps) {
      expect(
        g.filter((gap) => gap >= together && gap < retryAfterMs),
        'asked again before Retry-After (ms)',
      ).toEqual([]);
    }
    setFaults({});
    await waitFor(watcher, (w) => w.status === 'ok', 'the watcher never recovered');
  }, 150_000);

  it('resumes by itself after an outage longer than its retries, and tells the truth meanwhile', async () => {
    await trial(
      () => setFaults({ down: true }),
      async () => {
        const failing = await waitFor(
          watcher,
          (w) => w.status === 'failing',
          'health never showed the outage',
        );
        expect(failing.error).toMatchObject({ kind: expect.stringMatching(/unreachable|timeout/) });
        const res = await service.request('GET', '/health');
        // A chain fault degrades, but does not take the API out of a load balancer's rotation.
        expect(res.status).toBe(200);
        expect(res.body.status).toBe('degraded');
        expect(await metrics()).toMatch(/checkout_chain_watcher_failing\{chain="97"\} 1/);
        // No provider tells the head: the lag grows at the chain's block time, marked as an estimate.
        const grown = await waitFor(
          watcher,
          (w) => w.lag_blocks > 20,
          'the estimated lag never grew past 20 blocks',
        );
        expect(grown).toMatchObject({ status: 'failing', lag_estimated: true });
      },
    );
    await waitFor(watcher, (w) => w.status === 'ok', 'the watcher never recovered');
  }, 180_000);

  it('reads through the second endpoint while the first is down, and reports the lag while a limit holds it back', async () => {
    await trial(
      () => setFaults({ down: true }, {}),
      async (paid) => {
        // Served by the second endpoint: resolved during the fault.
        for (const hash of paid) {
          await waitFor(
            () =>
              service.deps.db.kysely
                .selectFrom('checkout_transactions')
                .select('tx_hash')
                .where('tx_hash', '=', hash.toLowerCase())
                .execute(),
            (rows) => rows.length === 1,
            'not resolved through the second endpoint',
          );
        }
        expect((await watcher()).status).toBe('ok');
      },
    );
    expect(await metrics()).toMatch(
      /checkout_chain_rpc_errors_total\{[^}]*kind="unreachable",endpoint="1"\} [1-9]/,
    );
    // Every eth_getLogs refused while a session waits: the head is still known, so the lag grows and shows.
    await open({ dollar_amount: '0.99', sender_address: chain.deployment.shoppers[4]!.address });
    setFaults({ rangeLimit: { blocks: 0, style: 'bsc' } });
    await chain.mine(25);
    const behind = await waitFor(watcher, (w) => w.lag_blocks >= 25, 'the lag never showed');
    expect(behind).toMatchObject({ status: 'failing', error: { kind: 'log_range' } });
    setFaults({});
    await waitFor(watcher, (w) => w.status === 'ok' && w.lag_blocks === 0, 'the watcher did not catch up');
  }, 120_000);

  /** Mines a block every `ms` by the clock (catching up when late) until stopped. */
  const keepMining = (ms: number) => {
    const started = Date.now();
    let mined = 0;
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      const due = Math.floor((Date.now() - started) / ms) - mined;
      if (due <= 0) return;
      busy = true;
      void chain
        .mine(due)
        .then(() => {
          mined += due;
        })
        .finally(() => {
          busy = false;
        });
    }, ms / 2);
    return { stop: () => clearInterval(timer), mined: () => mined };
  };
  /** Waits until every payment of `hashes` resolved its checkout (the fault still on). */
  const resolvedDuring = (hashes: string[], ms = 60_000) =>
    waitFor(
      () =>
        service.deps.db.kysely
          .selectFrom('checkout_transactions')
          .select('tx_hash')
          .where(
            'tx_hash',
            'in',
            hashes.map((h) => h.toLowerCase()),
          )
          .execute(),
      (rows) => rows.length === hashes.length,
      'not resolved during the fault',
      ms,
    );

  it('resolves payments while the node behind eth_getLogs lags 30 blocks and 100 blocks pass', async () => {
    const miner = keepMining(100);
    try {
      await trial(
        () => setFaults({ lagBlocks: 30 }),
        async (paid) => {
          await resolvedDuring(paid);
          await waitFor(
            async () => miner.mined(),
            (n) => n >= 100,
            'the chain did not move on',
            30_000,
          );
        },
      );
    } finally {
      miner.stop();
    }
    expect(first.stats().refused.lag ?? 0).toBeGreaterThan(0);
  }, 120_000);

  it('waits out 30 % of calls answered 429 while the other endpoint is down: payments resolve during the fault', async () => {
    await trial(
      () => setFaults({ rateLimitShare: { share: 0.3, retryAfterSeconds: 2 } }, { down: true }),
      async (paid) => {
        await resolvedDuring(paid, 45_000);
      },
    );
    expect(first.stats().refused.rate ?? 0).toBeGreaterThan(0);
  }, 120_000);

  it('waits out 30 % of calls answered 429 on both endpoints: payments resolve during the fault', async () => {
    const before = [first, second].map((p) => p.stats().refused.rate ?? 0);
    await trial(
      () => setFaults({ rateLimitShare: { share: 0.3, retryAfterSeconds: 2 } }),
      async (paid) => {
        await resolvedDuring(paid, 45_000);
      },
    );
    const after = [first, second].map((p) => p.stats().refused.rate ?? 0);
    expect(after[0]!, 'the first endpoint never answered 429').toBeGreaterThan(before[0]!);
    expect(after[1]!, 'the second endpoint never answered 429').toBeGreaterThan(before[1]!);
  }, 120_000);

  it('never asks a second endpoint 30 blocks behind for logs while the first one serves, nor rewinds', async () => {
    await chain.mine(40);
    const before = lines.length;
    const position = async () =>
      BigInt(
        (
          await service.deps.db.kysely
            .selectFrom('chain_watch')
            .select('next_block')
            .executeTakeFirstOrThrow()
        ).next_block,
      );
    const positions: bigint[] = [];
    let logsAsked = 0;
    // The first endpoint rests now and then (30 % of its calls answered 429): the fallback reaches the
    // stale one for heads, never for logs.
    await trial(
      async () => {
        // Until a round of head reads finds it behind, the second endpoint is as good as any: a tick that
        // starts after it falls behind (one that reads a block mined after) has found it stale.
        setFaults({}, { staleBlocks: 30 });
        await chain.mine(1);
        await waitForBlockRead(service.deps.db.kysely, 97, await chain.publicClient.getBlockNumber());
        setFaults({ rateLimitShare: { share: 0.3, retryAfterSeconds: 1 } }, { staleBlocks: 30 });
        logsAsked = second.stats().calls.eth_getLogs ?? 0;
      },
      async (paid) => {
        const heads = second.stats().calls.eth_blockNumber ?? 0;
        // The watcher's position, read while the payments resolve: it never goes back.
        let sampling = true;
        const sampler = (async () => {
          while (sampling) {
            positions.push(await position());
            await new Promise((r) => setTimeout(r, 200));
          }
        })();
        try {
          await resolvedDuring(paid);
        } finally {
          sampling = false;
          await sampler;
        }
        expect(
          second.stats().calls.eth_blockNumber ?? 0,
          'the stale endpoint was never asked',
        ).toBeGreaterThan(heads);
        expect(second.stats().calls.eth_getLogs ?? 0, 'the stale endpoint was asked for logs').toBe(
          logsAsked,
        );
      },
    );
    expect(
      positions.every((p, i) => i === 0 || p >= positions[i - 1]!),
      String(positions),
    ).toBe(true);
    expect(lines.slice(before).filter((l) => l.includes('the chain was reorganised'))).toEqual([]);
  }, 120_000);

  it('neither rewinds nor reads again when the endpoint that answers is 30 blocks behind', async () => {
    await chain.mine(40);
    const before = lines.length;
    const position = async () =>
      BigInt(
        (
          await service.deps.db.kysely
            .selectFrom('chain_watch')
            .select('next_block')
            .executeTakeFirstOrThrow()
        ).next_block,
      );
    const positions: bigint[] = [];
    await trial(
      () => setFaults({ down: true }, { staleBlocks: 30 }),
      async () => {
        const heads = second.stats().calls.eth_blockNumber ?? 0;
        await waitFor(
          async () => {
            positions.push(await position());
            return second.stats().calls.eth_blockNumber ?? 0;
          },
          (n) => n >= heads + 10,
          'the stale endpoint was never asked',
        );
      },
    );
    expect(
      positions.every((p, i) => i === 0 || p >= positions[i - 1]!),
      String(positions),
    ).toBe(true);
    expect(lines.slice(before).filter((l) => l.includes('the chain was reorganised'))).toEqual([]);
  }, 120_000);

  it('reports the real lag with slow calls and with a stale head', async () => {
    const readTo = async () =>
      BigInt(
        (
          await service.deps.db.kysely
            .selectFrom('chain_watch_status')
            .select('read_to_block')
            .executeTakeFirstOrThrow()
        ).read_to_block ?? 0,
      );
    /** Health's lag and the real one (the chain's head now, less the newest block read), read together. */
    const lags = async () => {
      const [w, read, head] = await Promise.all([watcher(), readTo(), chain.publicClient.getBlockNumber()]);
      return { reported: w.lag_blocks as number, real: Number(head - read) };
    };
    const close = ({ reported, real }: { reported: number; real: number }) =>
      Math.abs(reported - real) <= Math.max(4, real * 0.1);
    /** Six readings a few blocks apart, each within 10 % of the real lag (or 4 blocks), once it passed `least`. */
    const truthful = async (least: number) => {
      await waitFor(lags, (l) => l.real >= least, 'the lag never grew');
      for (let i = 0; i < 6; i++) {
        const at = await chain.publicClient.getBlockNumber();
        await waitFor(
          () => chain.publicClient.getBlockNumber(),
          (h) => h >= at + 3n,
          'no block',
        );
        const l = await lags();
        expect(close(l), JSON.stringify(l)).toBe(true);
      }
    };
    await open({ dollar_amount: '0.98', sender_address: chain.deployment.shoppers[4]!.address });
    const miner = keepMining(250);
    try {
      setFaults({ delayMs: 1_000 });
      await truthful(20);
      setFaults({ staleBlocks: 30 }, {});
      await waitFor(lags, close, 'health never caught up');
      await truthful(0);
    } finally {
      miner.stop();
      setFaults({});
    }
  }, 150_000);

  it('wrote no provider key into any log line', () => {
    expect(lines.length).toBeGreaterThan(0);
    const leaks = lines.filter((line) => line.includes(first.key) || line.includes(second.key));
    expect(leaks).toEqual([]);
    // The failures were logged, with their endpoints' URLs redacted.
    expect(lines.some((line) => line.includes('/v3/[redacted]'))).toBe(true);
  });
});
