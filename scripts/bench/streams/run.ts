/**
 * `npm run bench:streams`: what open checkout event streams cost the database, and how fast a session
 * change reaches them. Starts BENCH_STREAMS_PROCESSES service processes (API only, no Temporal) on one
 * throw-away PostgreSQL database, opens BENCH_STREAMS idle session streams spread over them, and counts
 * the database's committed transactions (pg_stat_database) over BENCH_STREAMS_WINDOW seconds. Then it
 * changes BENCH_STREAMS_CHANGES sessions one at a time, as the worker does (`updateSession`), and times
 * each change until its stream delivers it. Prints a table and writes `.bench/streams-<timestamp>.json`.
 *
 * Environment: BENCH_STREAMS (200), BENCH_STREAMS_PROCESSES (1), BENCH_STREAMS_WINDOW (s, 20),
 * BENCH_STREAMS_CHANGES (20), BENCH_DATABASE_URL / BENCH_POSTGRES_ADMIN_URL (as for the other benchmarks).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  findProductById,
  insertExpectedPayment,
  openDatabase,
  updateSession,
  upsertSession,
} from '@checkout/db';
import pg from 'pg';
import { killServiceProcesses, type ServiceProcess, startServiceProcess } from '../checkout/target.ts';
import { defaultAdminUrl, preparePostgres, redactUrl } from '../postgres.ts';
import { readInt } from '../readInt.ts';
import { openSessionStream, type SessionStream } from './sessionStream.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const settings = {
  streams: readInt('BENCH_STREAMS', 200, 1, 20_000),
  processes: readInt('BENCH_STREAMS_PROCESSES', 1, 1, 8),
  windowSeconds: readInt('BENCH_STREAMS_WINDOW', 20, 1, 3_600),
  changes: readInt('BENCH_STREAMS_CHANGES', 20, 0, 10_000),
  databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
  adminUrl: process.env.BENCH_POSTGRES_ADMIN_URL || defaultAdminUrl,
};

/** A backend that went idle flushes its statistics within PostgreSQL's idle stats interval (10 s). */
const statsSettleMs = 11_000;
const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

const progress = (message: string) => process.stderr.write(`${message}\n`);
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Committed plus rolled-back transactions of the database so far, as the statistics collector has them. */
async function transactions(client: pg.Client, database: string): Promise<number> {
  const { rows } = await client.query<{ n: string }>(
    'select (xact_commit + xact_rollback)::text as n from pg_stat_database where datname = $1',
    [database],
  );
  return Number(rows[0]?.n ?? Number.NaN);
}

async function main(): Promise<void> {
  const target = await preparePostgres(settings.databaseUrl, settings.adminUrl);
  if (!target.available) throw new Error(`PostgreSQL is needed: ${target.reason}`);
  const database = new URL(target.url).pathname.slice(1);
  const processes: ServiceProcess[] = [];
  const streams: SessionStream[] = [];
  const db = await openDatabase({ kind: 'postgres', url: target.url, poolSize: 4 });
  const stats = new pg.Client({ connectionString: target.url });
  stats.on('error', () => {});
  try {
    progress(`service processes: ${settings.processes} on ${redactUrl(target.url)}`);
    for (let i = 0; i < settings.processes; i++) {
      processes.push(
        await startServiceProcess({
          label: `api-${i}`,
          cwd: root,
          readyTimeoutMs: 60_000,
          env: {
            ...process.env,
            NODE_ENV: 'test',
            LOG_LEVEL: 'warn',
            PORT: '0',
            DATABASE_URL: target.url,
            DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-streams-')),
            TEMPORAL_ADDRESS: '',
            PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000',
          },
        }),
      );
    }
    const first = processes[0]!.ready;
    const created = await fetch(`${first.url}/api/v1/products`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${first.merchant.key}`,
        'x-address': first.merchant.address,
      },
      body: JSON.stringify({
        product: {
          name: 'Bench streams',
          email: 'merchant@example.com',
          active: true,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: token },
        },
      }),
    });
    const text = await created.text();
    if (created.status !== 200) throw new Error(`product: ${created.status} ${text}`);
    const product = (JSON.parse(text) as { product: { id: string } }).product;
    const merchant = await findProductById(db.kysely, product.id);
    if (!merchant) throw new Error('the product just created is missing');

    progress(`opening ${settings.streams} sessions and their streams`);
    const sessionIds: string[] = [];
    for (let i = 0; i < settings.streams; i++) {
      const expected = await insertExpectedPayment(db.kysely, {
        id: randomUUID(),
        merchant_id: merchant.merchant_id,
        product_id: product.id,
        dollar_amount: '5.00',
        metadata: null,
        customer_email: null,
        source: 'merchant',
      });
      const { session } = await upsertSession(
        db.kysely,
        {
          id: randomUUID(),
          expected_payment_id: expected.id,
          product_id: product.id,
          merchant_id: merchant.merchant_id,
          email: 'shopper@example.com',
          custom_fields: {},
          sender_address: `0x${randomBytes(20).toString('hex')}`,
          payment_token_address: token,
          chain_id: 97,
          expected_token: {
            symbol: 'BUSD',
            address: token,
            name: 'BUSD Token',
            decimal_count: 18,
            blockchain: 'binance-smart-chain',
            network: 'testnet',
          },
          expected_token_amount: (5n * 10n ** 18n).toString(),
          receiving_address: merchant.address,
          required_confirmations: 1_000,
          start_block: '0',
          expires_at: null,
          reference: randomBytes(32).toString('hex'),
          client_secret_hash: null,
        },
        null,
      );
      sessionIds.push(session.id);
    }
    for (let i = 0; i < sessionIds.length; i += 50) {
      const opened = await Promise.all(
        sessionIds
          .slice(i, i + 50)
          .map((id, j) => openSessionStream(processes[(i + j) % processes.length]!.ready.url, id)),
      );
      streams.push(...opened);
    }
    await Promise.all(streams.map((s) => s.next(() => true, 30_000)));

    progress(`streams open; waiting ${statsSettleMs / 1000} s for the opening to reach the statistics`);
    await stats.connect();
    await sleep(statsSettleMs);
    const before = await transactions(stats, database);
    const started = performance.now();
    await sleep(settings.windowSeconds * 1000);
    const after = await transactions(stats, database);
    const seconds = (performance.now() - started) / 1000;
    // The first sample's own transaction counts inside the window.
    const idleTransactions = after - before - 1;
    const idle = {
      streams: settings.streams,
      processes: settings.processes,
      windowSeconds: round(seconds),
      transactions: idleTransactions,
      transactionsPerSecond: round(idleTransactions / seconds, 2),
      perStreamPerMinute: round((idleTransactions / seconds / settings.streams) * 60, 3),
    };

    const latencies: number[] = [];
    let missed = 0;
    for (let i = 0; i < settings.changes; i++) {
      const index = (i * 7919) % streams.length;
      const confirmations = i + 1;
      // A random phase, so a polling server is not always caught at the same point of its period.
      await sleep(Math.random() * 1000);
      const t0 = performance.now();
      await updateSession(db.kysely, sessionIds[index]!, { status: 'confirming', confirmations });
      try {
        const event = await streams[index]!.next((s) => s.confirmations === confirmations, 10_000);
        latencies.push(event.at - t0);
      } catch {
        missed++;
      }
    }
    latencies.sort((a, b) => a - b);
    const pick = (q: number) =>
      round(latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)] ?? Number.NaN);
    const push = { changes: settings.changes, missed, p50Ms: pick(0.5), p95Ms: pick(0.95), maxMs: pick(1) };

    const result = { settings: { ...settings, databaseUrl: redactUrl(target.url) }, idle, push };
    const rows = [
      ['open streams', String(idle.streams)],
      ['API processes', String(idle.processes)],
      ['window (s)', String(idle.windowSeconds)],
      ['database transactions / s', String(idle.transactionsPerSecond)],
      ['per stream and minute', String(idle.perStreamPerMinute)],
      ['change → event p50 (ms)', String(push.p50Ms)],
      ['change → event p95 (ms)', String(push.p95Ms)],
      ['change → event max (ms)', String(push.maxMs)],
      ['changes not delivered in 10 s', String(push.missed)],
    ];
    console.log(rows.map(([k, v]) => `${k!.padEnd(32)} ${v}`).join('\n'));
    const dir = join(root, '.bench');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `streams-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    progress(`written to ${relative(process.cwd(), file)}`);
  } finally {
    for (const s of streams) s.close();
    await stats.end().catch(() => {});
    await Promise.all(processes.map((p) => p.stop()));
    await db.close();
    await target.drop();
  }
}

main().catch((error: unknown) => {
  console.error((error as Error).stack ?? String(error));
  killServiceProcesses();
  process.exitCode = 1;
});
