/**
 * `npm run bench`: load-tests listing and creating products on embedded PGlite and on PostgreSQL,
 * and the same two requests on a bare Koa app for scale, each target in its own process. Prints a
 * table and the verdict on the aim, and writes every number to `.bench/results-<timestamp>.json`.
 *
 * Environment: BENCH_DURATION (s, 10), BENCH_CONNECTIONS (50), BENCH_WARMUP (s, 3),
 * BENCH_DATABASE_URL (else a throw-away database on BENCH_POSTGRES_ADMIN_URL, default
 * postgres://postgres@127.0.0.1:5432/postgres), BENCH_TARGETS (pglite,postgres,bare),
 * BENCH_ENDPOINTS (list,create), BENCH_CPU_PROF=1 (CPU profiles of the service processes in
 * .bench/profiles; narrow BENCH_TARGETS and BENCH_ENDPOINTS so one profile holds one workload).
 */

import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { english, generateMnemonic, generatePrivateKey } from 'viem/accounts';
import { killAllTargets, startTarget, type TargetProcess } from './child.ts';
import { type LoadSpec, measure } from './load.ts';
import { defaultAdminUrl, type PostgresTarget, preparePostgres, redactUrl } from './postgres.ts';
import { createBody, merchantHeaders, productsPath, type Samples } from './protocol.ts';
import {
  aim,
  aimStatement,
  type EndpointName,
  evaluateAim,
  formatTable,
  type Row,
  type TargetName,
  type TargetStatus,
} from './report.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const allTargets: TargetName[] = ['pglite', 'postgres', 'bare'];

function readInt(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return value;
}

function readTargets(): TargetName[] {
  const raw = process.env.BENCH_TARGETS;
  if (!raw) return allTargets;
  const names = raw.split(',').map((s) => s.trim());
  for (const name of names) {
    if (!allTargets.includes(name as TargetName)) throw new Error(`BENCH_TARGETS: unknown target "${name}"`);
  }
  return allTargets.filter((t) => names.includes(t));
}

function readEndpoints(): EndpointName[] {
  const all: EndpointName[] = ['list', 'create'];
  const raw = process.env.BENCH_ENDPOINTS;
  if (!raw) return all;
  const names = raw.split(',').map((s) => s.trim());
  for (const name of names) {
    if (!all.includes(name as EndpointName)) throw new Error(`BENCH_ENDPOINTS: unknown endpoint "${name}"`);
  }
  return all.filter((e) => names.includes(e));
}

const settings = {
  durationSeconds: readInt('BENCH_DURATION', 10, 1),
  connections: readInt('BENCH_CONNECTIONS', 50, 1),
  warmupSeconds: readInt('BENCH_WARMUP', 3, 0),
  targets: readTargets(),
  endpoints: readEndpoints(),
  databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
  adminUrl: process.env.BENCH_POSTGRES_ADMIN_URL || defaultAdminUrl,
  cpuProfile: process.env.BENCH_CPU_PROF === '1',
  poolSize: Number(process.env.DATABASE_POOL_SIZE || 10),
};

const cleanups: Array<() => Promise<void>> = [];

async function cleanUp(): Promise<void> {
  for (const step of cleanups.splice(0).reverse()) {
    try {
      await Promise.race([step(), new Promise((r) => setTimeout(r, 20_000))]);
    } catch (error) {
      console.error(`cleanup step failed: ${(error as Error).message}`);
    }
  }
  killAllTargets();
}

function progress(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** Environment of a service process: this one's, minus what would change the measured setup. */
function serviceEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of [
    'TEMPORAL_ADDRESS',
    'DATABASE_URL',
    'DEV_API_KEY',
    'DEV_WALLET_ADDRESS',
    'PUBLIC_BASE_URL',
  ]) {
    delete env[key];
  }
  return {
    ...env,
    BENCH_TARGET: 'service',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    RUN_WORKER: 'false',
    SECRET_KEY: randomBytes(32).toString('hex'),
    // Production refuses to start without its own keys; throw-away ones serve a benchmark.
    DEPOSIT_MNEMONIC: generateMnemonic(english),
    TREASURY_PRIVATE_KEY: generatePrivateKey(),
    ...extra,
  };
}

async function measureRow(
  target: TargetName,
  endpoint: EndpointName,
  spec: Omit<LoadSpec, 'connections' | 'durationSeconds' | 'warmupSeconds'>,
  responseBytes: number,
): Promise<Row> {
  const request = `${spec.method.padEnd(4)} ${productsPath}`;
  progress(
    `  ${target}: ${request}: ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s at ${settings.connections} connections`,
  );
  const measured = await measure({
    ...spec,
    connections: settings.connections,
    durationSeconds: settings.durationSeconds,
    warmupSeconds: settings.warmupSeconds,
  });
  return { target, endpoint, request, responseBytes, ratioToBare: null, ...measured };
}

async function withTarget<T>(
  label: TargetName,
  env: NodeJS.ProcessEnv,
  work: (target: TargetProcess) => Promise<T>,
): Promise<T> {
  const profileDir = join(root, '.bench', 'profiles');
  const nodeArgs =
    settings.cpuProfile && label !== 'bare'
      ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${label}-${Date.now()}.cpuprofile`]
      : [];
  if (nodeArgs.length > 0) mkdirSync(profileDir, { recursive: true });
  progress(`${label}: starting the target process`);
  const target = await startTarget({ label, env, cwd: root, nodeArgs, readyTimeoutMs: 180_000 });
  cleanups.push(() => target.stop());
  try {
    return await work(target);
  } finally {
    await target.stop();
  }
}

async function benchService(
  label: 'pglite' | 'postgres',
  env: NodeJS.ProcessEnv,
): Promise<{ rows: Row[]; samples: Samples }> {
  return withTarget(label, env, async (target) => {
    const ready = target.ready;
    if (ready.target !== 'service') throw new Error(`expected a service target, got ${ready.target}`);
    if (ready.database !== label) throw new Error(`the service opened ${ready.database}, not ${label}`);
    const base = { url: `${ready.url}${productsPath}`, serverPid: target.pid };
    const rows: Row[] = [];
    if (settings.endpoints.includes('list')) {
      rows.push(
        await measureRow(
          label,
          'list',
          { ...base, method: 'GET', headers: merchantHeaders(ready.listMerchant) },
          Buffer.byteLength(ready.samples.list),
        ),
      );
    }
    if (settings.endpoints.includes('create')) {
      rows.push(
        await measureRow(
          label,
          'create',
          { ...base, method: 'POST', headers: merchantHeaders(ready.createMerchant), body: createBody },
          Buffer.byteLength(ready.samples.create),
        ),
      );
    }
    return { rows, samples: ready.samples };
  });
}

async function benchBare(samples: Samples, workDir: string): Promise<Row[]> {
  const samplesFile = join(workDir, 'samples.json');
  writeFileSync(samplesFile, JSON.stringify(samples));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BENCH_TARGET: 'bare',
    BENCH_SAMPLES_FILE: samplesFile,
    HOST: '127.0.0.1',
    PORT: '0',
  };
  return withTarget('bare', env, async (target) => {
    const url = `${target.ready.url}${productsPath}`;
    // The sizes are checked on the wire, as the client sees them.
    const probe = async (init: RequestInit) => {
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(5_000) });
      const bytes = (await response.arrayBuffer()).byteLength;
      if (response.status !== 200) throw new Error(`bare ${init.method} answered ${response.status}`);
      return bytes;
    };
    const listBytes = await probe({ method: 'GET' });
    const createBytes = await probe({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: createBody,
    });
    if (listBytes !== Buffer.byteLength(samples.list) || createBytes !== Buffer.byteLength(samples.create)) {
      throw new Error('bare Koa bodies differ in size from the service bodies');
    }
    const base = { url, serverPid: target.pid, headers: {} };
    const rows: Row[] = [];
    if (settings.endpoints.includes('list')) {
      rows.push(await measureRow('bare', 'list', { ...base, method: 'GET' }, listBytes));
    }
    if (settings.endpoints.includes('create')) {
      rows.push(
        await measureRow('bare', 'create', { ...base, method: 'POST', body: createBody }, createBytes),
      );
    }
    return rows;
  });
}

function contentionNote(rows: Row[]): string[] {
  const busiest = Math.max(0, ...rows.map((r) => r.cpuPercent.other ?? 0));
  // A quarter of a core is well beyond what an idle machine spends; below it the noise is small.
  if (busiest < 25) return [];
  return [
    `Note: other processes used up to ${busiest} % of a core during a measurement; with ${cpus().length} cores ` +
      'shared by target, PostgreSQL and load generator, absolute numbers are pessimistic (ratios less so).',
  ];
}

async function main(): Promise<number> {
  const startedAt = new Date();
  const workDir = mkdtempSync(join(tmpdir(), 'checkout-bench-'));
  cleanups.push(async () => rmSync(workDir, { recursive: true, force: true }));

  const rows: Row[] = [];
  const statuses: TargetStatus[] = [];
  let samples: Samples | undefined;
  let postgres: PostgresTarget | undefined;
  const attempt = async (target: TargetName, run: () => Promise<Row[]>) => {
    try {
      rows.push(...(await run()));
      statuses.push({ target, status: 'measured' });
    } catch (error) {
      const detail = (error as Error).message;
      progress(`${target}: FAILED: ${detail}`);
      statuses.push({ target, status: 'failed', detail });
    }
  };

  if (settings.targets.includes('pglite')) {
    await attempt('pglite', async () => {
      const result = await benchService('pglite', serviceEnv({ DATA_DIR: join(workDir, 'pglite') }));
      samples ??= result.samples;
      return result.rows;
    });
  }

  if (settings.targets.includes('postgres')) {
    postgres = await preparePostgres(settings.databaseUrl, settings.adminUrl);
    if (!postgres.available) {
      progress(`postgres: SKIPPED: ${postgres.reason}`);
      statuses.push({ target: 'postgres', status: 'skipped', detail: postgres.reason });
    } else {
      const database = postgres;
      cleanups.push(() => database.drop());
      await attempt('postgres', async () => {
        try {
          const result = await benchService(
            'postgres',
            serviceEnv({ DATABASE_URL: database.url, DATA_DIR: join(workDir, 'postgres') }),
          );
          samples ??= result.samples;
          return result.rows;
        } finally {
          await database.drop();
        }
      });
    }
  }

  if (settings.targets.includes('bare')) {
    if (samples) {
      const recorded = samples;
      await attempt('bare', () => benchBare(recorded, workDir));
    } else {
      const detail = 'needs the response bodies of a measured service target';
      progress(`bare: SKIPPED: ${detail}`);
      statuses.push({ target: 'bare', status: 'skipped', detail });
    }
  }

  for (const row of rows) {
    const bare = rows.find((r) => r.target === 'bare' && r.endpoint === row.endpoint);
    row.ratioToBare =
      bare && bare.requestsPerSec > 0
        ? Math.round((row.requestsPerSec / bare.requestsPerSec) * 1000) / 1000
        : null;
  }
  const order = (r: Row) => allTargets.indexOf(r.target) + (r.endpoint === 'list' ? 0 : 10);
  rows.sort((a, b) => order(a) - order(b));
  const verdict = evaluateAim(rows, statuses, settings.connections);

  const cpu = cpus();
  const postgresLabel = postgres?.available
    ? `${redactUrl(postgres.url)} (${postgres.created ? 'created for this run, dropped' : 'given'}), pool ${settings.poolSize}`
    : `skipped${postgres ? `: ${postgres.reason}` : ''}`;
  const lines = [
    '',
    `Products API benchmark: autocannon, ${settings.connections} connections, ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s per request`,
    `node ${process.version}, ${cpu.length} CPU × ${cpu[0]?.model.trim() ?? 'unknown'}; every target in its own process on 127.0.0.1`,
    'service: NODE_ENV=production, LOG_LEVEL=warn, RUN_WORKER=false, no Temporal; list = 100 products, create = 1 product',
    'bare koa: koa + @koa/router, no DB or auth, the service bodies re-serialised per request',
    `pglite: fresh DATA_DIR; postgresql: ${postgresLabel}`,
    'latency = exact percentiles over every response; CPU = % of one core: server / postgres / load generator / other processes',
    '',
    formatTable(rows),
    '',
    ...contentionNote(rows),
    ...statuses
      .filter((s) => s.status !== 'measured')
      .map((s) => `${s.target}: ${s.status.toUpperCase()}: ${s.detail}`),
    `Aim: ${aimStatement}`,
    `  ${verdict.verdict}: ${verdict.detail}`,
  ];

  const resultsDir = join(root, '.bench');
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `results-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  const report = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    node: process.version,
    cpus: cpu.length,
    cpuModel: cpu[0]?.model.trim() ?? null,
    settings: {
      durationSeconds: settings.durationSeconds,
      connections: settings.connections,
      warmupSeconds: settings.warmupSeconds,
      targets: settings.targets,
      endpoints: settings.endpoints,
      databasePoolSize: settings.poolSize,
      postgres: postgres?.available
        ? { url: redactUrl(postgres.url), created: postgres.created }
        : { skipped: postgres?.reason ?? 'not run' },
    },
    aim: { statement: aimStatement, ...aim, ...verdict },
    targets: statuses,
    rows,
  };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  lines.push(`Results: ${relative(process.cwd(), file)}`, '');
  console.log(lines.join('\n'));
  return statuses.some((s) => s.status === 'failed') ? 1 : 0;
}

const budgetSeconds =
  settings.targets.length *
    (180 + settings.endpoints.length * (settings.warmupSeconds + settings.durationSeconds + 45) + 40) +
  120;
const watchdog = setTimeout(() => {
  console.error(`bench: still running after ${budgetSeconds} s; stopping`);
  void cleanUp().finally(() => process.exit(2));
}, budgetSeconds * 1000);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.error(`bench: ${signal}; stopping the targets`);
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
    console.error(`bench failed: ${(error as Error).stack ?? String(error)}`);
    await cleanUp();
    clearTimeout(watchdog);
    process.exitCode = 1;
  });
