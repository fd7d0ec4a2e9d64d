/**
 * `npm run bench:checkout`: how fast a stablecoin payment becomes the merchant's webhook, and how many
 * payments a second resolve, on embedded PGlite and on PostgreSQL (when reachable). One run starts a
 * headless in-memory Temporal dev server, the local dev chain (automining, one block per transaction),
 * a webhook receiver, and per database the service in a child process. Prints a table and the verdict
 * on both aims, and writes every number to `.bench/checkout-<timestamp>.json`.
 *
 * Latency is measured twice over BENCH_CHECKOUT_PAYMENTS payments: one at a time (what one payment waits for
 * on an otherwise idle system; the aim is judged on it) and BENCH_CHECKOUT_LOADED_CONCURRENCY at a time
 * (the same payments competing for these cores; reported beside it).
 *
 * Environment: BENCH_CHECKOUT_PAYMENTS (200), BENCH_CHECKOUT_CONCURRENCY (1),
 * BENCH_CHECKOUT_LOADED_CONCURRENCY (10; 0 skips that run), BENCH_CHECKOUT_IN_FLIGHT (50),
 * BENCH_CHECKOUT_WINDOW (s, 30), BENCH_CHECKOUT_WARMUP (s, 5), BENCH_CHECKOUT_TARGETS (pglite,postgres),
 * BENCH_DATABASE_URL / BENCH_POSTGRES_ADMIN_URL (as for the products benchmark).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootstrapDevChain, type DevChain, type DevDeployment, startDevChain } from '@checkout/chain';
import { bundleWorkflows, startTemporalDevServer, type TemporalDevServer } from '@checkout/workflows';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger } from '@temporalio/worker';
import { english, generateMnemonic, generatePrivateKey } from 'viem/accounts';
import { fetchTemporal } from '../../fetchTemporal.ts';
import { defaultAdminUrl, preparePostgres, redactUrl } from '../postgres.ts';
import { readInt } from '../readInt.ts';
import { type BenchProduct, createBenchProduct, type PaymentTiming, payOnce } from './flow.ts';
import { type BenchReceiver, startReceiver } from './receiver.ts';
import { connectShoppers, type Shoppers } from './shoppers.ts';
import { killServiceProcesses, type ServiceProcess, startServiceProcess } from './target.ts';
import { breakDown, type Step } from './timeline.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
type TargetName = 'pglite' | 'postgres';
const allTargets: TargetName[] = ['pglite', 'postgres'];

function readTargets(): TargetName[] {
  const raw = process.env.BENCH_CHECKOUT_TARGETS;
  if (!raw) return allTargets;
  const names = raw.split(',').map((s) => s.trim());
  for (const name of names) {
    if (!allTargets.includes(name as TargetName))
      throw new Error(`BENCH_CHECKOUT_TARGETS: unknown target "${name}"`);
  }
  return allTargets.filter((t) => names.includes(t));
}

const settings = {
  payments: readInt('BENCH_CHECKOUT_PAYMENTS', 200, 1, 100_000),
  concurrency: readInt('BENCH_CHECKOUT_CONCURRENCY', 1, 1, 1_000),
  loadedConcurrency: readInt('BENCH_CHECKOUT_LOADED_CONCURRENCY', 10, 0, 1_000),
  inFlight: readInt('BENCH_CHECKOUT_IN_FLIGHT', 50, 1, 1_000),
  windowSeconds: readInt('BENCH_CHECKOUT_WINDOW', 30, 1, 3_600),
  warmupSeconds: readInt('BENCH_CHECKOUT_WARMUP', 5, 0, 600),
  targets: readTargets(),
  databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
  adminUrl: process.env.BENCH_POSTGRES_ADMIN_URL || defaultAdminUrl,
};

/** What the service processes run with; reported with the results. */
const serviceSettings = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  CHAIN_POLL_INTERVAL_MS: '100',
  CONFIRMATIONS_BINANCE_SMART_CHAIN_TESTNET: '1',
  // The merchant's receiver is on loopback.
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
  // Every request comes from one address here; the per-client limit (300/min) would cap the run.
  PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000',
} as const;

const aims = { p95Ms: 250, throughputShareOfPing: 0.3 };
const webhookTimeoutMs = 60_000;
const chainId = 97;

const cleanups: Array<() => Promise<void>> = [];

async function cleanUp(): Promise<void> {
  for (const step of cleanups.splice(0).reverse()) {
    try {
      await Promise.race([step(), new Promise((r) => setTimeout(r, 20_000))]);
    } catch (error) {
      console.error(`cleanup step failed: ${(error as Error).message}`);
    }
  }
  killServiceProcesses();
}

function progress(message: string): void {
  process.stderr.write(`${message}\n`);
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Latency summary in ms. */
interface Latency {
  count: number;
  p50: number;
  p95: number;
  max: number;
  mean: number;
}

function summarise(values: number[]): Latency {
  const sorted = [...values].sort((a, b) => a - b);
  const sum = values.reduce((a, b) => a + b, 0);
  return {
    count: values.length,
    p50: round(quantile(sorted, 0.5)),
    p95: round(quantile(sorted, 0.95)),
    max: round(sorted.at(-1) ?? Number.NaN),
    mean: round(values.length ? sum / values.length : Number.NaN),
  };
}

/** The result of one database target. */
interface TargetResult {
  target: TargetName;
  status: 'measured' | 'failed' | 'skipped';
  detail?: string;
  latency?: Latency & { failed: number; submitErrors: number; concurrency: number };
  /** The same measurement with more payments at a time (absent when skipped). */
  latencyLoaded?: Latency & { failed: number; submitErrors: number; concurrency: number };
  throughput?: {
    perSecond: number;
    resolvedInWindow: number;
    started: number;
    failed: number;
    latency: Latency;
  };
  ping?: { perSecond: number; completedInWindow: number; failed: number; latency: Latency };
  throughputShareOfPing?: number;
  breakdown?: { sampled: number; steps: Step[] };
  serviceStderrLines?: number;
  verdict?: { latency: 'PASS' | 'MISS'; throughput: 'PASS' | 'MISS' };
}

/** Runs `worker` in `lanes` parallel loops until `stopAt` (performance.now()) or `maxPerLane` each. */
async function lanes(
  count: number,
  stopAt: number,
  maxPerLane: number,
  worker: (lane: number) => Promise<void>,
) {
  await Promise.all(
    Array.from({ length: count }, async (_, lane) => {
      for (let i = 0; i < maxPerLane && performance.now() < stopAt; i++) await worker(lane);
    }),
  );
}

async function latencyPhase(
  ctx: PhaseContext,
  concurrency: number,
): Promise<NonNullable<TargetResult['latency']> & { samples: PaymentTiming[] }> {
  const timings: PaymentTiming[] = [];
  let failed = 0;
  let next = 0;
  let firstError: string | undefined;
  const stopAt = performance.now() + Math.max(120_000, settings.payments * 2_000);
  await lanes(concurrency, stopAt, settings.payments, async (lane) => {
    if (next >= settings.payments) return;
    next++;
    try {
      timings.push(await payOnce({ ...ctx, shopper: lane, webhookTimeoutMs }));
    } catch (error) {
      failed++;
      firstError ??= (error as Error).message;
    }
  });
  if (firstError) progress(`    first failure: ${firstError}`);
  return {
    ...summarise(timings.map((t) => t.latencyMs)),
    failed,
    submitErrors: timings.filter((t) => t.submitError !== undefined).length,
    concurrency,
    samples: timings,
  };
}

async function throughputPhase(ctx: PhaseContext): Promise<NonNullable<TargetResult['throughput']>> {
  const begin = performance.now();
  const windowStart = begin + settings.warmupSeconds * 1000;
  const windowEnd = windowStart + settings.windowSeconds * 1000;
  let started = 0;
  let failed = 0;
  const latencies: number[] = [];
  const arrivalsBefore = ctx.receiver.arrivals.length;
  let firstError: string | undefined;
  await lanes(settings.inFlight, windowEnd, 100_000, async (lane) => {
    started++;
    try {
      const timing = await payOnce({ ...ctx, shopper: lane, webhookTimeoutMs });
      if (performance.now() >= windowStart && performance.now() <= windowEnd)
        latencies.push(timing.latencyMs);
    } catch (error) {
      failed++;
      firstError ??= (error as Error).message;
    }
  });
  if (firstError) progress(`    first failure: ${firstError}`);
  const inWindow = ctx.receiver.arrivals
    .slice(arrivalsBefore)
    .filter((a) => a.atMono >= windowStart && a.atMono < windowEnd).length;
  return {
    perSecond: round(inWindow / settings.windowSeconds, 2),
    resolvedInWindow: inWindow,
    started,
    failed,
    latency: summarise(latencies),
  };
}

async function pingPhase(client: Client, taskQueue: string): Promise<NonNullable<TargetResult['ping']>> {
  const begin = performance.now();
  const windowStart = begin + settings.warmupSeconds * 1000;
  const windowEnd = windowStart + settings.windowSeconds * 1000;
  let completed = 0;
  let failed = 0;
  const latencies: number[] = [];
  await lanes(settings.inFlight, windowEnd, 100_000, async () => {
    const started = performance.now();
    try {
      await client.workflow.execute('ping', {
        taskQueue,
        workflowId: `bench-ping-${randomUUID()}`,
        args: [{ message: 'bench' }],
        workflowExecutionTimeout: '1 minute',
      });
      const done = performance.now();
      if (done >= windowStart && done < windowEnd) {
        completed++;
        latencies.push(done - started);
      }
    } catch {
      failed++;
    }
  });
  return {
    perSecond: round(completed / settings.windowSeconds, 2),
    completedInWindow: completed,
    failed,
    latency: summarise(latencies),
  };
}

interface PhaseContext {
  ready: ServiceProcess['ready'];
  product: BenchProduct;
  shoppers: Shoppers;
  receiver: BenchReceiver;
}

interface Shared {
  temporal: TemporalDevServer;
  client: Client;
  chain: DevChain;
  deployment: DevDeployment;
  shoppers: Shoppers;
  receiver: BenchReceiver;
  bundlePath: string;
  workDir: string;
}

async function benchTarget(
  target: TargetName,
  shared: Shared,
  extraEnv: Record<string, string>,
): Promise<TargetResult> {
  const taskQueue = `checkout-bench-${target}-${randomBytes(4).toString('hex')}`;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['DATABASE_URL', 'DEV_API_KEY', 'DEV_WALLET_ADDRESS', 'PUBLIC_BASE_URL', 'SMTP_URL'])
    delete env[key];
  Object.assign(env, {
    ...serviceSettings,
    HOST: '127.0.0.1',
    PORT: '0',
    SECRET_KEY: randomBytes(32).toString('hex'),
    // Required in production; throw-away values, the onramp is not measured.
    DEPOSIT_MNEMONIC: generateMnemonic(english),
    TREASURY_PRIVATE_KEY: generatePrivateKey(),
    TEMPORAL_ADDRESS: shared.temporal.address,
    TEMPORAL_TASK_QUEUE: taskQueue,
    RPC_URL_BINANCE_SMART_CHAIN_TESTNET: shared.chain.rpcUrl,
    BENCH_WORKFLOW_BUNDLE: shared.bundlePath,
    DATA_DIR: join(shared.workDir, target),
    ...extraEnv,
  });
  progress(`${target}: starting the service process`);
  const service = await startServiceProcess({ label: target, env, cwd: root, readyTimeoutMs: 180_000 });
  cleanups.push(() => service.stop());
  try {
    if (service.ready.database !== target)
      throw new Error(`the service opened ${service.ready.database}, not ${target}`);
    const busd = shared.deployment.tokens.BUSD;
    const product = await createBenchProduct(service.ready, shared.receiver, busd.address, busd.decimals);
    const ctx: PhaseContext = {
      ready: service.ready,
      product,
      shoppers: shared.shoppers,
      receiver: shared.receiver,
    };

    const warmups = Math.max(settings.concurrency, settings.loadedConcurrency);
    progress(`  ${target}: warm-up: ${warmups} payments`);
    await Promise.all(
      Array.from({ length: warmups }, (_, i) => payOnce({ ...ctx, shopper: i, webhookTimeoutMs })),
    );
    progress(`  ${target}: latency: ${settings.payments} payments, ${settings.concurrency} at a time`);
    const { samples, ...latency } = await latencyPhase(ctx, settings.concurrency);
    let latencyLoaded: TargetResult['latencyLoaded'];
    if (settings.loadedConcurrency > 0) {
      progress(
        `  ${target}: latency: ${settings.payments} payments, ${settings.loadedConcurrency} at a time`,
      );
      const { samples: _loadedSamples, ...loaded } = await latencyPhase(ctx, settings.loadedConcurrency);
      latencyLoaded = loaded;
    }
    progress(
      `  ${target}: throughput: ${settings.inFlight} sessions in flight, ${settings.warmupSeconds} s warm-up + ${settings.windowSeconds} s`,
    );
    const throughput = await throughputPhase(ctx);
    progress(
      `  ${target}: ping: ${settings.inFlight} in flight, ${settings.warmupSeconds} s warm-up + ${settings.windowSeconds} s`,
    );
    const ping = await pingPhase(shared.client, taskQueue);
    progress(`  ${target}: reading workflow histories`);
    const breakdown = await breakDown(
      shared.client,
      samples.filter((_, i) => i % Math.max(1, Math.floor(samples.length / 30)) === 0).slice(0, 30),
      Date.now() + 60_000,
    );
    const share = ping.perSecond > 0 ? round(throughput.perSecond / ping.perSecond, 3) : 0;
    return {
      target,
      status: 'measured',
      latency,
      ...(latencyLoaded ? { latencyLoaded } : {}),
      throughput,
      ping,
      throughputShareOfPing: share,
      breakdown,
      serviceStderrLines: service.outputLines(),
      verdict: {
        latency: latency.count >= settings.payments && latency.p95 <= aims.p95Ms ? 'PASS' : 'MISS',
        throughput: share >= aims.throughputShareOfPing ? 'PASS' : 'MISS',
      },
    };
  } finally {
    await service.stop();
  }
}

function pad(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
}

function formatTable(results: TargetResult[]): string {
  const header = [
    'database',
    'payments',
    'p50 ms',
    'p95 ms',
    'max ms',
    `p50 @${settings.loadedConcurrency}`,
    `p95 @${settings.loadedConcurrency}`,
    'resolved/s',
    'ping/s',
    'share',
    'p95 aim',
    'rate aim',
  ];
  const rows = results
    .filter((r) => r.status === 'measured')
    .map((r) => [
      r.target,
      `${r.latency?.count ?? 0}${r.latency?.failed ? ` (${r.latency.failed} failed)` : ''}`,
      String(r.latency?.p50 ?? '-'),
      String(r.latency?.p95 ?? '-'),
      String(r.latency?.max ?? '-'),
      String(r.latencyLoaded?.p50 ?? '-'),
      String(r.latencyLoaded?.p95 ?? '-'),
      String(r.throughput?.perSecond ?? '-'),
      String(r.ping?.perSecond ?? '-'),
      `${round((r.throughputShareOfPing ?? 0) * 100, 0)} %`,
      r.verdict?.latency ?? '-',
      r.verdict?.throughput ?? '-',
    ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
  return [
    pad(header, widths),
    pad(
      widths.map((w) => '-'.repeat(w)),
      widths,
    ),
    ...rows.map((r) => pad(r, widths)),
  ].join('\n');
}

function formatBreakdown(result: TargetResult): string[] {
  const b = result.breakdown;
  if (!b || b.sampled === 0) return [];
  const common = b.steps.filter((s) => s.count >= b.sampled / 2);
  const total = common.reduce((sum, s) => sum + s.p50Ms, 0);
  return [
    `${result.target}: where a payment's time goes (medians over ${b.sampled} sampled payments of the latency run; Temporal event times):`,
    ...common.map(
      (s) => `  ${String(s.p50Ms).padStart(7)} ms  (p95 ${String(s.p95Ms).padStart(6)})  ${s.from} → ${s.to}`,
    ),
    `  ${String(round(total)).padStart(7)} ms  sum of the step medians`,
  ];
}

async function main(): Promise<number> {
  const startedAt = new Date();
  const workDir = mkdtempSync(join(tmpdir(), 'checkout-bench-'));
  cleanups.push(async () => rmSync(workDir, { recursive: true, force: true }));

  progress('starting the Temporal dev server (headless, in memory), the dev chain and the webhook receiver');
  const { cli } = fetchTemporal();
  const temporal = await startTemporalDevServer({ binary: cli, uiPort: false, logLevel: 'warn' });
  cleanups.push(() => temporal.stop());
  const chain = await startDevChain({ chainId });
  cleanups.push(() => chain.stop());
  const deployment = await bootstrapDevChain({ rpcUrl: chain.rpcUrl });
  const receiver = await startReceiver();
  cleanups.push(() => receiver.close());
  const shoppers = await connectShoppers(deployment, chain.rpcUrl, chainId);
  const connection = await Connection.connect({ address: temporal.address, connectTimeout: 5_000 });
  cleanups.push(() => connection.close());
  const client = new Client({ connection, namespace: temporal.namespace });
  progress('bundling the workflows once for every service process');
  const bundle = await bundleWorkflows(join(workDir, 'workflows.js'), new DefaultLogger('WARN'));
  const shared: Shared = {
    temporal,
    client,
    chain,
    deployment,
    shoppers,
    receiver,
    bundlePath: bundle.codePath,
    workDir,
  };

  const results: TargetResult[] = [];
  const attempt = async (target: TargetName, extraEnv: Record<string, string>) => {
    try {
      results.push(await benchTarget(target, shared, extraEnv));
    } catch (error) {
      const detail = (error as Error).message;
      progress(`${target}: FAILED: ${detail}`);
      results.push({ target, status: 'failed', detail });
    }
  };

  if (settings.targets.includes('pglite')) await attempt('pglite', {});
  let postgresLabel = 'not run';
  if (settings.targets.includes('postgres')) {
    const postgres = await preparePostgres(settings.databaseUrl, settings.adminUrl);
    if (!postgres.available) {
      postgresLabel = `skipped: ${postgres.reason}`;
      progress(`postgres: SKIPPED: ${postgres.reason}`);
      results.push({ target: 'postgres', status: 'skipped', detail: postgres.reason });
    } else {
      postgresLabel = `${redactUrl(postgres.url)} (${postgres.created ? 'created for this run, dropped' : 'given'})`;
      cleanups.push(() => postgres.drop());
      try {
        await attempt('postgres', { DATABASE_URL: postgres.url });
      } finally {
        await postgres.drop();
      }
    }
  }

  const cpu = cpus();
  const lines = [
    '',
    `Checkout benchmark: node ${process.version}, ${cpu.length} CPU × ${cpu[0]?.model.trim() ?? 'unknown'}; everything on 127.0.0.1 and on these cores`,
    `Temporal dev server ${temporal.address} (headless, in memory); dev chain ${chain.rpcUrl} (chain id ${chainId}, one block per transaction)`,
    `service in a child process: ${Object.entries(serviceSettings)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')}; no SMTP`,
    `payments: ${deployment.shoppers.length} shopper accounts, one transaction at a time each, ${settings.payments} payments ${settings.concurrency} at a time (p50/p95/max), then ${settings.payments} more ${settings.loadedConcurrency} at a time (p50/p95 @${settings.loadedConcurrency}); ${deployment.tokens.BUSD.symbol} 1.00 each`,
    'latency = receipt returned (wall time when waitForTransactionReceipt returns; block timestamps are whole seconds) → webhook received',
    `resolved/s = webhooks received in ${settings.windowSeconds} s with ${settings.inFlight} sessions in flight (after ${settings.warmupSeconds} s warm-up)`,
    `ping/s = the smoke workflow ping (one activity call) on the same worker and Temporal server, ${settings.inFlight} in flight, same window`,
    `postgresql: ${postgresLabel}`,
    '',
    formatTable(results),
    '',
    ...results
      .filter((r) => r.status !== 'measured')
      .map((r) => `${r.target}: ${r.status.toUpperCase()}: ${r.detail}`),
    ...results.flatMap(formatBreakdown),
    '',
    `Aims: p95 ≤ ${aims.p95Ms} ms with one confirmation (payments ${settings.concurrency} at a time); resolved/s ≥ ${aims.throughputShareOfPing * 100} % of ping/s`,
    ...results
      .filter((r) => r.status === 'measured')
      .map(
        (r) =>
          `  ${r.target}: latency ${r.verdict?.latency} (p95 ${r.latency?.p95} ms), throughput ${r.verdict?.throughput} (${r.throughput?.perSecond}/s = ${round((r.throughputShareOfPing ?? 0) * 100, 0)} % of ${r.ping?.perSecond}/s)`,
      ),
  ];

  const resultsDir = join(root, '.bench');
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `checkout-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  const report = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    node: process.version,
    cpus: cpu.length,
    cpuModel: cpu[0]?.model.trim() ?? null,
    settings: {
      ...settings,
      adminUrl: redactUrl(settings.adminUrl),
      databaseUrl: settings.databaseUrl ? redactUrl(settings.databaseUrl) : null,
      service: serviceSettings,
      shopperAccounts: deployment.shoppers.length,
      latencyStart: 'wall time when waitForTransactionReceipt returns',
      temporal: { address: temporal.address, headless: true, inMemory: true },
      postgres: postgresLabel,
    },
    aims,
    results,
  };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  lines.push(`Results: ${relative(process.cwd(), file)}`, '');
  console.log(lines.join('\n'));
  return results.some((r) => r.status === 'failed') ? 1 : 0;
}

const budgetSeconds =
  240 +
  settings.targets.length *
    (240 +
      settings.payments * 4 +
      2 * (settings.warmupSeconds + settings.windowSeconds) +
      webhookTimeoutMs / 1000 +
      60);
const watchdog = setTimeout(() => {
  console.error(`bench:checkout: still running after ${budgetSeconds} s; stopping`);
  void cleanUp().finally(() => process.exit(2));
}, budgetSeconds * 1000);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.error(`bench:checkout: ${signal}; stopping`);
    void cleanUp().finally(() => process.exit(130));
  });
}

main()
  .then(async (code) => {
    await cleanUp();
    clearTimeout(watchdog);
    process.exitCode = code;
  })
  .catch(async (error: unknown) => {
    console.error(`bench:checkout failed: ${(error as Error).stack ?? String(error)}`);
    await cleanUp();
    clearTimeout(watchdog);
    process.exitCode = 1;
  });
