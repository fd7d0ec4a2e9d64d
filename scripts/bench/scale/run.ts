/**
 * `npm run bench:scale`: what the service costs as open checkouts grow, on the deployment shape of
 * production: PostgreSQL, two API processes and two worker processes of the real service against the
 * Temporal dev server and the dev chain (97). Every JSON-RPC call the service makes goes through a
 * counting proxy; database transactions are read from `pg_stat_database`.
 *
 * One run measures:
 * - RPC calls/s and database transactions/s while idle and with 10, 1,000 and 5,000 open sessions
 *   (sessions opened through the public API, as shoppers open them, and never paid), each once the
 *   workers have caught up with the opening (the time that took is reported);
 * - payment-to-webhook latency (block mined → the merchant's endpoint receives the webhook) p50/p95 of
 *   payments made with 10 and with 5,000 sessions open;
 * - database transactions/s added by 1,000 open session event streams, and how fast a payment's
 *   events reach its stream among them;
 * - the resident memory of every process after each step;
 * - a payment burst during which one worker process is SIGKILLed and restarted: each payment must be
 *   resolved exactly once and delivered.
 *
 * It prints the figures with the aims and writes `.bench/scale-<timestamp>.json`; exits 1 when an aim
 * is missed.
 *
 * Environment: BENCH_SCALE_SESSIONS ("10,1000,5000": the open-session steps; the last is the "many"
 * step), BENCH_SCALE_WINDOW (s, 30: each measuring window), BENCH_SCALE_PAYMENTS (20: payments timed
 * per latency step), BENCH_SCALE_STREAMS (1000), BENCH_SCALE_BURST (30), BENCH_POSTGRES_ADMIN_URL.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootstrapDevChain, startDevChain } from '@checkout/chain';
import { bundleWorkflows, startTemporalDevServer } from '@checkout/workflows';
import { DefaultLogger } from '@temporalio/worker';
import pg from 'pg';
import { type Address, parseUnits } from 'viem';
import { fetchTemporal } from '../../fetchTemporal.ts';
import { connectShoppers, type Shoppers } from '../checkout/shoppers.ts';
import { killServiceProcesses, type ServiceProcess, startServiceProcess } from '../checkout/target.ts';
import { defaultAdminUrl, preparePostgres } from '../postgres.ts';
import { quantile } from '../quantile.ts';
import { readInt } from '../readInt.ts';
import { openSessionStream, type SessionStream } from '../streams/sessionStream.ts';
import { runBurst } from './burst.ts';
import { type ScaleLatency, type ScaleStreams, scaleReport } from './report.ts';
import { startRpcCounter } from './rpcCounter.ts';
import { pool, rssMb, startReceiver } from './support.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const chainId = 97;

const steps = (process.env.BENCH_SCALE_SESSIONS ?? '10,1000,5000')
  .split(',')
  .map((s) => Number.parseInt(s.trim(), 10))
  .filter((n) => Number.isInteger(n) && n > 0 && n <= 50_000)
  .sort((a, b) => a - b);
const settings = {
  steps,
  windowSeconds: readInt('BENCH_SCALE_WINDOW', 30, 5, 3_600),
  payments: readInt('BENCH_SCALE_PAYMENTS', 20, 2, 1_000),
  streams: readInt('BENCH_SCALE_STREAMS', 1000, 0, 20_000),
  burst: readInt('BENCH_SCALE_BURST', 30, 0, 1_000),
  adminUrl: process.env.BENCH_POSTGRES_ADMIN_URL || defaultAdminUrl,
};
if (steps.length === 0) throw new Error('BENCH_SCALE_SESSIONS names no step');

const cleanups: Array<() => Promise<unknown>> = [];
const progress = (message: string) => process.stderr.write(`scale: ${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
/** A backend's statistics reach pg_stat_database within PostgreSQL's stats interval (about 10 s). */
const statsSettleMs = 11_000;

async function main(): Promise<number> {
  const startedAt = new Date();
  const workDir = mkdtempSync(join(tmpdir(), 'checkout-scale-'));
  cleanups.push(async () => rmSync(workDir, { recursive: true, force: true }));

  const postgres = await preparePostgres(undefined, settings.adminUrl);
  if (!postgres.available) throw new Error(`PostgreSQL is needed: ${postgres.reason}`);
  cleanups.push(() => postgres.drop());
  const database = new URL(postgres.url).pathname.slice(1);

  progress('starting Temporal, the dev chain, the RPC counter and the webhook receiver');
  const { cli } = fetchTemporal();
  const temporal = await startTemporalDevServer({ binary: cli, uiPort: false, logLevel: 'warn' });
  cleanups.push(() => temporal.stop());
  const chain = await startDevChain({ chainId });
  cleanups.push(() => chain.stop());
  const deployment = await bootstrapDevChain({ rpcUrl: chain.rpcUrl });
  const rpc = await startRpcCounter(chain.rpcUrl);
  cleanups.push(() => rpc.close());
  const receiver = await startReceiver();
  cleanups.push(() => receiver.close());
  const shoppers: Shoppers = await connectShoppers(deployment, chain.rpcUrl, chainId);
  const bundle = await bundleWorkflows(join(workDir, 'workflows.js'), new DefaultLogger('WARN'));

  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['DEV_API_KEY', 'DEV_WALLET_ADDRESS', 'PUBLIC_BASE_URL', 'NODE_ENV']) delete env[key];
  Object.assign(env, {
    HOST: '127.0.0.1',
    PORT: '0',
    // Warnings such as "no SMTP server" would fill the output: the figures are what this run is for.
    LOG_LEVEL: 'error',
    DATABASE_URL: postgres.url,
    SECRET_KEY: randomBytes(32).toString('hex'),
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_TASK_QUEUE: `scale-${randomBytes(4).toString('hex')}`,
    RPC_URL_BINANCE_SMART_CHAIN_TESTNET: rpc.url,
    BENCH_WORKFLOW_BUNDLE: bundle.codePath,
    BENCH_MAX_SECONDS: '7200',
    PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000',
    // The shortest claim delay the service allows in practice, so abandoned sessions are past it (and
    // looking for their payment) while they are measured.
    CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS: '5',
  });
  const start = (label: string, extra: Record<string, string>) =>
    startServiceProcess({
      label,
      env: { ...env, DATA_DIR: join(workDir, label), ...extra },
      cwd: root,
      readyTimeoutMs: 180_000,
    });
  progress('starting two API processes and two worker processes');
  const apis = [await start('api-1', { ROLE: 'api' }), await start('api-2', { ROLE: 'api' })];
  cleanups.push(() => Promise.all(apis.map((a) => a.stop())));
  const workers: ServiceProcess[] = [
    await start('worker-1', { ROLE: 'worker' }),
    await start('worker-2', { ROLE: 'worker' }),
  ];
  cleanups.push(() => Promise.all(workers.map((w) => w.stop())));
  const processes = () => ({
    'api-1': apis[0]!,
    'api-2': apis[1]!,
    'worker-1': workers[0]!,
    'worker-2': workers[1]!,
  });

  const merchant = apis[0]!.ready.merchant;
  let turn = 0;
  const apiUrl = () => apis[turn++ % apis.length]!.ready.url;
  const call = async (method: string, path: string, body: unknown, auth: 'wallet' | 'none') => {
    for (let tries = 0; ; tries++) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (auth === 'wallet') {
        headers.authorization = `Bearer ${merchant.key}`;
        headers['x-address'] = merchant.address;
      }
      const res = await fetch(`${apiUrl()}${path}`, { method, headers, body: JSON.stringify(body) });
      const text = await res.text();
      if (res.status < 300) return JSON.parse(text);
      if (res.status !== 503 || tries >= 20) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      await sleep(1_000);
    }
  };

  const busd = deployment.tokens.BUSD;
  const product = (
    await call(
      'POST',
      '/api/v1/products',
      {
        product: {
          name: 'Scale coffee',
          email: 'merchant@example.com',
          active: true,
          send_webhook: true,
          webhook_url: receiver.url,
          send_email: false,
          custom_fields: [],
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd.address },
        },
      },
      'wallet',
    )
  ).product as { id: string; slug: string };

  // Every opened session has its own amount: cents counting up from $7.00 (never a payment's amount).
  let amountSeq = 0;
  const nextIdleAmount = () => {
    const cents = 700 + amountSeq++;
    return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
  };
  const openSession = async (dollars: string, sender: string) => {
    const expected = (
      await call(
        'POST',
        `/api/v1/products/${product.id}/expected_payments`,
        { dollar_amount: dollars, customer_email: 'shopper@example.com' },
        'wallet',
      )
    ).expected_payment as { id: string };
    const session = (
      await call(
        'POST',
        `/api/v1/checkout/${product.slug}/sessions`,
        {
          expected_payment_id: expected.id,
          email: 'shopper@example.com',
          custom_fields: {},
          sender_address: sender,
          token_address: busd.address,
        },
        'none',
      )
    ).session as { id: string; reference: string };
    return { expectedPaymentId: expected.id, sessionId: session.id, reference: session.reference };
  };
  const idleSessions: string[] = [];
  const openIdle = async (count: number) => {
    const t0 = performance.now();
    await pool(
      Array.from({ length: count }, () => 0),
      16,
      async () => {
        const opened = await openSession(nextIdleAmount(), `0x${randomBytes(20).toString('hex')}`);
        idleSessions.push(opened.sessionId);
      },
    );
    return round((performance.now() - t0) / 1000, 1);
  };

  // Payments: each on its own session, paid by a funded shopper, hash submitted as the element does.
  // Amounts in a range no idle session uses ($2.00-$6.99), unique per payment.
  let paymentSeq = 0;
  const pay = async (lane: number) => {
    const cents = 200 + (paymentSeq++ % 500);
    const dollars = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
    const opened = await openSession(dollars, shoppers.address(lane));
    const mined = await shoppers.transfer(
      lane,
      busd.address,
      merchant.address as Address,
      parseUnits(dollars, busd.decimals),
      opened.reference,
    );
    await fetch(`${apiUrl()}/api/v1/checkout/sessions/${opened.sessionId}/transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tx_hash: mined.hash }),
    }).then((r) => r.text());
    return { ...opened, mined };
  };
  const timePayments = async (count: number) => {
    const latencies: number[] = [];
    await pool(
      Array.from({ length: count }, (_, i) => i),
      Math.min(shoppers.count, 4),
      async (i) => {
        const paid = await pay(i % shoppers.count);
        const at = await receiver.waitFor(paid.expectedPaymentId, 120_000);
        latencies.push(at - paid.mined.minedAtMono);
      },
    );
    return { count, p50Ms: round(quantile(latencies, 0.5), 0), p95Ms: round(quantile(latencies, 0.95), 0) };
  };

  const stats = new pg.Client({ connectionString: postgres.url });
  stats.on('error', () => {});
  await stats.connect();
  cleanups.push(() => stats.end());
  const transactions = async () => {
    const { rows } = await stats.query<{ n: string }>(
      'select (xact_commit + xact_rollback)::text as n from pg_stat_database where datname = $1',
      [database],
    );
    return Number(rows[0]?.n ?? Number.NaN);
  };
  const memory = () =>
    Object.fromEntries(Object.entries(processes()).map(([label, p]) => [label, rssMb(p.pid)]));
  /** RPC calls/s (with the busiest methods) and database transactions/s over one window. */
  const measure = async (label: string) => {
    await sleep(statsSettleMs);
    const rpc0 = rpc.counts();
    const tx0 = await transactions();
    const t0 = performance.now();
    await sleep(settings.windowSeconds * 1000);
    const rpc1 = rpc.counts();
    const tx1 = await transactions();
    const seconds = (performance.now() - t0) / 1000;
    let calls = 0;
    const methods: Record<string, number> = {};
    for (const [method, n] of rpc1) {
      const delta = n - (rpc0.get(method) ?? 0);
      calls += delta;
      if (delta > 0) methods[method] = round(delta / seconds);
    }
    // The first sample's own transaction falls inside the window.
    const row = {
      label,
      rpcPerSecond: round(calls / seconds),
      rpcMethods: methods,
      dbTransactionsPerSecond: round((tx1 - tx0 - 1) / seconds),
      memoryMb: memory(),
    };
    progress(`${label}: ${row.rpcPerSecond} RPC/s, ${row.dbTransactionsPerSecond} db tx/s`);
    return row;
  };

  /**
   * Waits until the workers have caught up with an opening: samples as long as the stats interval until the
   * database's transaction rate is back within twice the idle rate plus 2 (the work each new session
   * causes once is done), at most 5 minutes. Returns the seconds that took.
   */
  const settle = async (idleRate: number) => {
    const t0 = performance.now();
    for (;;) {
      const before = await transactions();
      const s0 = performance.now();
      await sleep(statsSettleMs);
      const rate = ((await transactions()) - before - 1) / ((performance.now() - s0) / 1000);
      const elapsed = (performance.now() - t0) / 1000;
      if (rate <= 2 * idleRate + 2 || elapsed >= 300) return round(elapsed, 0);
    }
  };
  const catchingUp: Record<string, number> = {};
  const windows: Awaited<ReturnType<typeof measure>>[] = [];
  const latency: Record<string, ScaleLatency> = {};
  const opening: Record<string, number> = {};

  progress('idle');
  windows.push(await measure('idle'));
  let streamsResult: ScaleStreams | undefined;
  for (const [index, target] of steps.entries()) {
    progress(`opening sessions up to ${target}`);
    opening[String(target)] = await openIdle(target - idleSessions.length);
    // The workers start each session's workflow and each session looks once at what the chain watcher
    // recorded when its claim delay ends (5 s): the window measures the steady state after that work, not
    // the opening. How long the opening's work took is reported with the step.
    catchingUp[String(target)] = await settle(windows[0]!.dbTransactionsPerSecond);
    const window = await measure(`${target} open sessions`);
    windows.push(window);
    if (index === 0 || index === steps.length - 1) {
      progress(`timing ${settings.payments} payments with ${target} sessions open`);
      latency[String(target)] = await timePayments(settings.payments);
    }
    // The event streams, once enough sessions are open to watch.
    if (!streamsResult && settings.streams > 0 && idleSessions.length >= settings.streams) {
      progress(`opening ${settings.streams} session event streams`);
      const streams: SessionStream[] = [];
      const watched = idleSessions.slice(0, settings.streams - 10);
      for (let i = 0; i < watched.length; i += 50) {
        streams.push(
          ...(await Promise.all(
            watched.slice(i, i + 50).map((id, j) => openSessionStream(apis[(i + j) % 2]!.ready.url, id)),
          )),
        );
      }
      // Ten more, on sessions about to be paid: how fast their events are pushed among the rest.
      const paidLater: Array<{
        stream: SessionStream;
        lane: number;
        sessionId: string;
        reference: string;
        dollars: string;
      }> = [];
      for (let i = 0; i < 10; i++) {
        const dollars = `6.${String(50 + i).padStart(2, '0')}`;
        const opened = await openSession(dollars, shoppers.address(i % shoppers.count));
        const stream = await openSessionStream(apis[i % 2]!.ready.url, opened.sessionId);
        streams.push(stream);
        paidLater.push({
          stream,
          lane: i % shoppers.count,
          sessionId: opened.sessionId,
          reference: opened.reference,
          dollars,
        });
      }
      cleanups.push(async () => {
        for (const s of streams) s.close();
      });
      await Promise.all(streams.map((s) => s.next(() => true, 60_000)));
      const withStreams = await measure(`${target} open sessions + ${streams.length} streams`);
      const pushed: number[] = [];
      let missed = 0;
      await pool(paidLater, Math.min(shoppers.count, 4), async (p) => {
        const mined = await shoppers.transfer(
          p.lane,
          busd.address,
          merchant.address as Address,
          parseUnits(p.dollars, busd.decimals),
          p.reference,
        );
        await fetch(`${apiUrl()}/api/v1/checkout/sessions/${p.sessionId}/transactions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ tx_hash: mined.hash }),
        }).then((r) => r.text());
        try {
          const event = await p.stream.next((s) => s.status === 'resolved', 60_000);
          pushed.push(event.at - mined.minedAtMono);
        } catch {
          missed += 1;
        }
      });
      for (const s of streams) s.close();
      streamsResult = {
        streams: streams.length,
        withoutPerSecond: window.dbTransactionsPerSecond,
        withPerSecond: withStreams.dbTransactionsPerSecond,
        addedPerSecond: round(withStreams.dbTransactionsPerSecond - window.dbTransactionsPerSecond),
        pushedP50Ms: round(quantile(pushed, 0.5), 0),
        pushedP95Ms: round(quantile(pushed, 0.95), 0),
        missed,
      };
    }
  }

  // The burst: payments from every shopper while worker-1 is SIGKILLed and restarted.
  const burst = await runBurst({
    size: settings.burst,
    lanes: shoppers.count,
    pay,
    receiver,
    stats,
    progress,
    killAndRestart: async () => {
      await workers[0]!.kill();
      await sleep(2_000);
      workers[0] = await start('worker-1', { ROLE: 'worker' });
    },
  });

  return scaleReport({
    root,
    startedAt,
    settings,
    windows,
    opening,
    catchingUp,
    latency,
    streams: streamsResult,
    burst,
  });
}

let code = 1;
try {
  code = await main();
} catch (error) {
  process.stderr.write(`scale: ${(error as Error).stack ?? String(error)}\n`);
} finally {
  killServiceProcesses();
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
}
process.exit(code);
