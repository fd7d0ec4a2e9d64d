/**
 * `npm run chaos -- --rpc-faults`: payments through RPC providers that misbehave. On PostgreSQL, an API
 * process and a worker process of the real service read the dev chain (a block every CHAOS_RPC_BLOCK_MS,
 * automining off, as a real chain) through two fault-injecting JSON-RPC proxies (test/support/rpc): the
 * chain's two configured endpoints, each with a provider key in its URL. Fault after fault, shoppers who
 * closed their tab (payer known, no hash submitted) and shoppers paying from a phone (exact amount, any
 * sender) open their sessions, then pay while the fault lasts; then it is lifted and everything settles.
 *
 * Faults: an `eth_getLogs` node lagging the head (3 and 30 blocks); 30 % of calls answered 429 (with the
 * second provider down, on both, and with the second 30 blocks behind); a second provider 30 blocks behind
 * (the first down); calls taking 3 s; a range
 * limit and a result limit (in QuickNode's, BNB Smart Chain's and Infura's words); 429 with Retry-After; both providers down CHAOS_RPC_OUTAGE_SECONDS
 * (120); the first down while the second serves; and an outage followed by a range limit narrower than
 * the blocks it left behind.
 *
 * Per fault it prints payments, lost (never resolved), doubled (resolved twice, or one transfer paying
 * two), late (resolved only after the fault was lifted), the slowest mined → resolved, and what /health
 * said meanwhile. Then every line the service processes logged is searched for the providers' keys.
 * Exits 1 on any lost or doubled payment or leaked key. Writes `.bench/chaos-rpc-<timestamp>.json`.
 *
 * Environment: CHAOS_RPC_PAYMENTS (10 per fault), CHAOS_RPC_FAULT_SECONDS (30), CHAOS_RPC_OUTAGE_SECONDS
 * (120), CHAOS_RPC_BLOCK_MS (1000), CHAOS_RPC_SETTLE_SECONDS (180), CHAOS_POSTGRES_ADMIN_URL.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootstrapDevChain, startDevChain } from '@checkout/chain';
import { bundleWorkflows, startTemporalDevServer } from '@checkout/workflows';
import { DefaultLogger } from '@temporalio/worker';
import pg from 'pg';
import { type Address, parseUnits } from 'viem';
import { type RpcFaults, type RpcProxy, startRpcProxy } from '../../test/support/rpc/rpcProxy.ts';
import { connectShoppers, type Shoppers } from '../bench/checkout/shoppers.ts';
import { startServiceProcess } from '../bench/checkout/target.ts';
import { preparePostgres } from '../bench/postgres.ts';
import { readInt } from '../bench/readInt.ts';
import { fetchTemporal } from '../fetchTemporal.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const settings = {
  payments: readInt('CHAOS_RPC_PAYMENTS', 10, 2, 500),
  faultSeconds: readInt('CHAOS_RPC_FAULT_SECONDS', 30, 5, 3_600),
  outageSeconds: readInt('CHAOS_RPC_OUTAGE_SECONDS', 120, 5, 3_600),
  blockMs: readInt('CHAOS_RPC_BLOCK_MS', 1_000, 250, 15_000),
  settleSeconds: readInt('CHAOS_RPC_SETTLE_SECONDS', 180, 10, 3_600),
  adminUrl: process.env.CHAOS_POSTGRES_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
};
const progress = (message: string) => process.stderr.write(`chaos rpc: ${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A fault: phases applied one after the other (the first proxy's faults, the second's). */
interface Fault {
  name: string;
  phases: Array<{ seconds: number; first: RpcFaults; second: RpcFaults }>;
}

function faultsToRun(): Fault[] {
  const both = (name: string, faults: RpcFaults, seconds = settings.faultSeconds): Fault => ({
    name,
    phases: [{ seconds, first: faults, second: faults }],
  });
  const range = (blocks: number): [RpcFaults, RpcFaults] => [
    { rangeLimit: { blocks, style: 'quicknode' } },
    { rangeLimit: { blocks, style: 'bsc' } },
  ];
  const half = Math.max(5, Math.round(settings.faultSeconds / 2));
  return [
    both('eth_getLogs lags the head by 3 blocks', { lagBlocks: 3 }),
    both('eth_getLogs lags the head by 30 blocks', { lagBlocks: 30 }),
    {
      name: '30 % of calls 429 (Retry-After 2 s), second provider down',
      phases: [
        {
          seconds: settings.faultSeconds,
          first: { rateLimitShare: { share: 0.3, retryAfterSeconds: 2 } },
          second: { down: true },
        },
      ],
    },
    both('30 % of calls 429 on both (Retry-After 2 s)', {
      rateLimitShare: { share: 0.3, retryAfterSeconds: 2 },
    }),
    {
      name: '30 % of calls 429 (Retry-After 1 s), second provider 30 blocks behind',
      phases: [
        {
          seconds: settings.faultSeconds,
          first: { rateLimitShare: { share: 0.3, retryAfterSeconds: 1 } },
          second: { staleBlocks: 30 },
        },
      ],
    },
    {
      name: 'second provider 30 blocks behind, first down',
      phases: [{ seconds: settings.faultSeconds, first: { down: true }, second: { staleBlocks: 30 } }],
    },
    both('every call takes 3 s', { delayMs: 3_000 }),
    {
      name: 'eth_getLogs range limit of 5 blocks',
      phases: [{ seconds: settings.faultSeconds, first: range(5)[0], second: range(5)[1] }],
    },
    both('eth_getLogs result limit of 1 log', { resultLimit: 1 }),
    both('429 above 4 calls/s, Retry-After 2 s', { rateLimit: { perSecond: 4, retryAfterSeconds: 2 } }),
    both(`both providers down ${settings.outageSeconds} s`, { down: true }, settings.outageSeconds),
    {
      name: 'first provider down, second serving',
      phases: [{ seconds: settings.faultSeconds, first: { down: true }, second: {} }],
    },
    {
      name: `down ${half} s, then a range limit of 5 blocks`,
      phases: [
        { seconds: half, first: { down: true }, second: { down: true } },
        { seconds: half, first: range(5)[0], second: range(5)[1] },
      ],
    },
  ];
}

/** What a fault did to its payments and what /health said meanwhile. */
interface TrialResult {
  fault: string;
  payments: number;
  lost: number;
  doubled: number;
  wrongTransfer: number;
  late: number;
  slowestSeconds: number;
  health: { statuses: string[]; errorKinds: string[]; maxLagBlocks: number };
}

/** The running system a trial uses. */
interface Stage {
  apiUrl: string;
  merchant: { key: string; address: string };
  productSlug: string;
  busd: { address: Address; decimals: number };
  shoppers: Shoppers;
  proxies: [RpcProxy, RpcProxy];
  db: pg.Client;
}

/** Opens the sessions, pays them under the fault, lifts it and counts. */
async function runTrial(stage: Stage, fault: Fault, index: number): Promise<TrialResult> {
  const { shoppers, busd } = stage;
  const open = async (cents: number, payer?: Address) => {
    const res = await fetch(`${stage.apiUrl}/api/v1/checkout/${stage.productSlug}/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'shopper@example.com',
        custom_fields: {},
        dollar_amount: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
        token_address: busd.address,
        ...(payer ? { sender_address: payer } : {}),
      }),
    });
    if (res.status !== 200) throw new Error(`opening a session: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { session: unknown }).session as {
      id: string;
      expected_payment_id: string;
      expected_token_amount: string;
      reference: string;
      sender_address: string | null;
    };
  };
  // Half closed tabs (one per shopper at a time), half phone payments; every amount its own.
  const sessions: Array<{ lane: number; session: Awaited<ReturnType<typeof open>> }> = [];
  for (let i = 0; i < settings.payments; i++) {
    const lane = i % shoppers.count;
    const phone = i % 2 === 1;
    sessions.push({
      lane,
      session: await open(1_000 * (index + 1) + i, phone ? undefined : shoppers.address(lane)),
    });
  }
  const total = fault.phases.reduce((s, p) => s + p.seconds, 0) * 1000;
  const started = Date.now();
  const health = { statuses: new Set<string>(), errorKinds: new Set<string>(), maxLagBlocks: 0 };
  let watching = true;
  const watcher = (async () => {
    while (watching) {
      // biome-ignore lint/suspicious/noExplicitAny: the health body is read field by field
      const body: any = await fetch(`${stage.apiUrl}/health`)
        .then((r) => r.json())
        .catch(() => undefined);
      const w = body?.chain_watchers?.[0];
      if (w) {
        health.statuses.add(w.status);
        if (w.error?.kind) health.errorKinds.add(w.error.kind);
        health.maxLagBlocks = Math.max(health.maxLagBlocks, w.lag_blocks ?? 0);
      }
      await sleep(2_000);
    }
  })();
  const phases = (async () => {
    for (const phase of fault.phases) {
      stage.proxies[0].set(phase.first);
      stage.proxies[1].set(phase.second);
      await sleep(phase.seconds * 1000);
    }
  })();
  const paid: Array<{ expectedPaymentId: string; hash: string; minedAt: number }> = [];
  await Promise.all(
    Array.from({ length: shoppers.count }, async (_, lane) => {
      for (const [i, s] of sessions.entries()) {
        if (s.lane !== lane) continue;
        await sleep(Math.max(0, started + (i * total) / (settings.payments + 1) - Date.now()));
        const mined = await shoppers.transfer(
          lane,
          busd.address,
          stage.merchant.address as Address,
          parseUnits(s.session.expected_token_amount, busd.decimals),
          // A wallet's element sends the session's reference; a phone pays the exact amount alone.
          s.session.sender_address ? s.session.reference : undefined,
        );
        paid.push({
          expectedPaymentId: s.session.expected_payment_id,
          hash: mined.hash.toLowerCase(),
          minedAt: mined.minedAt,
        });
      }
    }),
  );
  await phases;
  stage.proxies[0].set({});
  stage.proxies[1].set({});
  const liftedAt = Date.now();
  progress(`${fault.name}: lifted; settling`);
  const ids = paid.map((p) => p.expectedPaymentId);
  const rows = async () =>
    (
      await stage.db.query<{ expected_payment_id: string; tx_id: string; at: Date }>(
        'select expected_payment_id, tx_id, created_at as at from resolved_payments where expected_payment_id = any($1::uuid[])',
        [ids],
      )
    ).rows;
  const deadline = Date.now() + settings.settleSeconds * 1000;
  while (new Set((await rows()).map((r) => r.expected_payment_id)).size < ids.length && Date.now() < deadline)
    await sleep(1_000);
  await sleep(3_000);
  watching = false;
  await watcher;
  const resolved = await rows();
  const result: TrialResult = {
    fault: fault.name,
    payments: paid.length,
    lost: 0,
    doubled: 0,
    wrongTransfer: 0,
    late: 0,
    slowestSeconds: 0,
    health: {
      statuses: [...health.statuses],
      errorKinds: [...health.errorKinds],
      maxLagBlocks: health.maxLagBlocks,
    },
  };
  const byTx = new Map<string, number>();
  for (const r of resolved) byTx.set(r.tx_id, (byTx.get(r.tx_id) ?? 0) + 1);
  for (const p of paid) {
    const mine = resolved.filter((r) => r.expected_payment_id === p.expectedPaymentId);
    if (mine.length === 0) result.lost += 1;
    if (mine.length > 1 || (byTx.get(p.hash) ?? 0) > 1) result.doubled += 1;
    const first = mine[0];
    if (!first) continue;
    if (first.tx_id !== p.hash) result.wrongTransfer += 1;
    if (first.at.getTime() > liftedAt) result.late += 1;
    result.slowestSeconds = Math.max(
      result.slowestSeconds,
      Math.round((first.at.getTime() - p.minedAt) / 100) / 10,
    );
  }
  return result;
}

/** Starts everything, runs every fault and reports; returns the exit code. */
export async function runRpcFaults(cleanups: Array<() => Promise<unknown>>): Promise<number> {
  const startedAt = new Date();
  const workDir = mkdtempSync(join(tmpdir(), 'checkout-chaos-rpc-'));
  cleanups.push(async () => rmSync(workDir, { recursive: true, force: true }));
  const postgres = await preparePostgres(undefined, settings.adminUrl);
  if (!postgres.available) throw new Error(`PostgreSQL is needed: ${postgres.reason}`);
  cleanups.push(() => postgres.drop());

  progress(
    `starting Temporal, the dev chain (a block every ${settings.blockMs} ms) and two faulty RPC proxies`,
  );
  const temporal = await startTemporalDevServer({
    binary: fetchTemporal().cli,
    uiPort: false,
    logLevel: 'warn',
  });
  cleanups.push(() => temporal.stop());
  const chain = await startDevChain({ chainId: 97 });
  cleanups.push(() => chain.stop());
  const deployment = await bootstrapDevChain({ rpcUrl: chain.rpcUrl });
  for (const [method, params] of [
    ['evm_setAutomine', [false]],
    ['evm_setIntervalMining', [settings.blockMs]],
  ] as const) {
    await fetch(chain.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
  }
  const proxies: [RpcProxy, RpcProxy] = [
    await startRpcProxy(chain.rpcUrl),
    await startRpcProxy(chain.rpcUrl),
  ];
  cleanups.push(() => Promise.all(proxies.map((p) => p.close())));
  const shoppers = await connectShoppers(deployment, chain.rpcUrl, 97);
  const bundle = await bundleWorkflows(join(workDir, 'workflows.js'), new DefaultLogger('WARN'));

  // Every line the service processes write is kept, to look for the providers' keys afterwards.
  const logFile = join(workDir, 'service.log');
  process.env.BENCH_TARGET_LOG = logFile;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['DEV_API_KEY', 'DEV_WALLET_ADDRESS', 'PUBLIC_BASE_URL', 'NODE_ENV']) delete env[key];
  Object.assign(env, {
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    DATABASE_URL: postgres.url,
    SECRET_KEY: randomBytes(32).toString('hex'),
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_TASK_QUEUE: `chaos-rpc-${randomBytes(4).toString('hex')}`,
    RPC_URL_BINANCE_SMART_CHAIN_TESTNET: proxies.map((p) => p.url).join(','),
    BLOCK_TIME_MS_BINANCE_SMART_CHAIN_TESTNET: String(settings.blockMs),
    // A closed tab's transfer is claimed 5 s after it is first seen (60 s by default), as in `npm run chaos`.
    CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS: '5',
    BENCH_WORKFLOW_BUNDLE: bundle.codePath,
    BENCH_MAX_SECONDS: '7200',
    PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000',
  });
  const start = (label: string, role: string) =>
    startServiceProcess({
      label,
      env: { ...env, DATA_DIR: join(workDir, label), ROLE: role },
      cwd: root,
      readyTimeoutMs: 180_000,
    });
  const api = await start('api', 'api');
  cleanups.push(() => api.stop());
  const worker = await start('worker', 'worker');
  cleanups.push(() => worker.stop());
  const db = new pg.Client({ connectionString: postgres.url });
  db.on('error', () => {});
  await db.connect();
  cleanups.push(() => db.end());

  const { merchant } = api.ready;
  const created = await fetch(`${api.ready.url}/api/v1/products`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${merchant.key}`,
      'x-address': merchant.address,
    },
    body: JSON.stringify({
      product: {
        name: 'Chaos beans',
        email: 'merchant@example.com',
        active: true,
        open_amount: true,
        send_email: false,
        token: {
          blockchain: 'binance-smart-chain',
          network: 'testnet',
          address: deployment.tokens.BUSD.address,
        },
      },
    }),
  });
  if (created.status !== 200)
    throw new Error(`creating the product: ${created.status} ${await created.text()}`);
  const stage: Stage = {
    apiUrl: api.ready.url,
    merchant,
    productSlug: ((await created.json()) as { product: { slug: string } }).product.slug,
    busd: deployment.tokens.BUSD,
    shoppers,
    proxies,
    db,
  };
  const results: TrialResult[] = [];
  for (const [index, fault] of faultsToRun().entries()) {
    progress(`${fault.name}: ${settings.payments} payments`);
    results.push(await runTrial(stage, fault, index));
  }
  await Promise.all([api.stop(), worker.stop()]);
  const lines = readFileSync(logFile, 'utf8').split('\n');
  const leaks = lines.filter((l) => proxies.some((p) => l.includes(p.key))).length;
  return report(startedAt, results, { lines: lines.length - 1, leaks });
}

function report(startedAt: Date, results: TrialResult[], logs: { lines: number; leaks: number }): number {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(
    '| fault | payments | lost | doubled | wrong transfer | late | slowest mined → resolved | /health meanwhile (max lag) |',
  );
  out('|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const seen = `${r.health.statuses.join(', ')}${r.health.errorKinds.length ? ` (${r.health.errorKinds.join(', ')})` : ''}, ${r.health.maxLagBlocks} blocks`;
    out(
      `| ${r.fault} | ${r.payments} | ${r.lost} | ${r.doubled} | ${r.wrongTransfer} | ${r.late} | ${r.slowestSeconds} s | ${seen} |`,
    );
  }
  out(`service log lines: ${logs.lines}; lines with a provider key: ${logs.leaks}`);
  const faults = results.reduce((n, r) => n + r.lost + r.doubled + r.wrongTransfer, 0) + logs.leaks;
  mkdirSync(join(root, '.bench'), { recursive: true });
  const file = join(root, '.bench', `chaos-rpc-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ startedAt, settings: { ...settings, adminUrl: undefined }, results, logs }, null, 2)}\n`,
  );
  out(`${faults === 0 ? 'PASS' : 'FAIL'}: ${faults} faults; written to ${file}`);
  return faults === 0 ? 0 : 1;
}
