/**
 * `node scripts/bench/phases.ts`: where one `GET /api/v1/products` (100 products) spends its time,
 * step by step, one call at a time so queueing does not blur the numbers. Runs the service in this
 * process on a throw-away PostgreSQL database (BENCH_DATABASE_URL / BENCH_POSTGRES_ADMIN_URL as for
 * run.ts), or on PGlite with BENCH_PHASES_DATABASE=pglite. BENCH_PHASES_ITERATIONS sets the count.
 */

import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalizeDecimal, tokenId } from '@checkout/core';
import {
  findMerchantByApiKey,
  findWalletByAddress,
  hashApiKey,
  listProducts,
  presentProduct,
} from '@checkout/db';
import { loadConfig, startService } from '@checkout/server';
import { sql } from 'kysely';
import { english, generateMnemonic, generatePrivateKey } from 'viem/accounts';
import { defaultAdminUrl, preparePostgres } from './postgres.ts';
import { merchantHeaders, productsPath } from './protocol.ts';
import { seedService } from './seed.ts';

interface Phase {
  name: string;
  medianUs: number;
  p99Us: number;
  /** Process CPU per call: what bounds throughput once the event loop is saturated. */
  cpuUs: number;
}

function quantile(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

async function time(name: string, iterations: number, fn: () => unknown): Promise<Phase> {
  for (let i = 0; i < Math.min(200, iterations); i++) await fn();
  const samples = new Float64Array(iterations);
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    await fn();
    samples[i] = performance.now() - started;
  }
  const cpu = process.cpuUsage(cpuBefore);
  samples.sort();
  return {
    name,
    medianUs: Math.round(quantile(samples, 0.5) * 1000),
    p99Us: Math.round(quantile(samples, 0.99) * 1000),
    cpuUs: Math.round((cpu.user + cpu.system) / iterations),
  };
}

async function main(): Promise<void> {
  const iterations = Number(process.env.BENCH_PHASES_ITERATIONS ?? 1000);
  const usePglite = process.env.BENCH_PHASES_DATABASE === 'pglite';
  const dataDir = mkdtempSync(join(tmpdir(), 'checkout-phases-'));
  const postgres = usePglite
    ? undefined
    : await preparePostgres(
        process.env.BENCH_DATABASE_URL || undefined,
        process.env.BENCH_POSTGRES_ADMIN_URL || defaultAdminUrl,
      );
  if (postgres && !postgres.available) throw new Error(`PostgreSQL unavailable: ${postgres.reason}`);
  const service = await startService(
    loadConfig({
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      RUN_WORKER: 'false',
      SECRET_KEY: randomBytes(32).toString('hex'),
      DEPOSIT_MNEMONIC: generateMnemonic(english),
      TREASURY_PRIVATE_KEY: generatePrivateKey(),
      DATA_DIR: dataDir,
      ...(postgres?.available ? { DATABASE_URL: postgres.url } : {}),
    }),
  );
  try {
    const { listMerchant } = await seedService(service);
    const db = service.deps.db.kysely;
    const merchant = await findMerchantByApiKey(db, listMerchant.key);
    const wallet = merchant && (await findWalletByAddress(db, listMerchant.address));
    if (!merchant || !wallet) throw new Error('seeded merchant not found');
    const rows = await listProducts(db, { addressId: wallet.id });
    const body = { products: rows.map(presentProduct) };
    const headers = merchantHeaders(listMerchant);
    const url = `${service.url}${productsPath}`;
    const first = rows[0];
    if (!first) throw new Error('no products seeded');

    const phases: Phase[] = [];
    phases.push(await time('DB round trip (select 1)', iterations, () => sql`select 1`.execute(db)));
    phases.push(
      await time('auth: API key lookup (sha256 + SELECT)', iterations, () =>
        findMerchantByApiKey(db, listMerchant.key),
      ),
    );
    phases.push(await time('  of which sha256 of the key', iterations, () => hashApiKey(listMerchant.key)));
    phases.push(
      await time('auth: X-ADDRESS wallet lookup (SELECT)', iterations, () =>
        findWalletByAddress(db, listMerchant.address),
      ),
    );
    phases.push(
      await time('list: SELECT 100 products + row parsing', iterations, () =>
        listProducts(db, { addressId: wallet.id }),
      ),
    );
    phases.push(await time('present: rows.map(presentProduct)', iterations, () => rows.map(presentProduct)));
    phases.push(
      await time('  of which tokenId() × 100 (keccak256)', iterations, () => {
        for (const r of rows) {
          tokenId({ blockchain: r.token_blockchain, network: r.token_network, address: r.token_address });
        }
      }),
    );
    phases.push(
      await time('  of which normalizeDecimal() × 100', iterations, () => {
        for (const r of rows) normalizeDecimal(r.tax_rate);
      }),
    );
    phases.push(
      await time('  of which toISOString() × 200', iterations, () => {
        for (const r of rows) {
          r.created_at.toISOString();
          r.updated_at.toISOString();
        }
      }),
    );
    phases.push(await time('serialise: JSON.stringify (72 KB)', iterations, () => JSON.stringify(body)));
    phases.push(
      await time('observe: request id, child logger, metrics', iterations, () => {
        service.deps.logger.child({ req_id: randomUUID() });
        const labels = { method: 'GET', route: productsPath, status: '200' };
        service.deps.metrics.requests.inc(labels);
        service.deps.metrics.duration.observe(labels, 0.01);
      }),
    );
    phases.push(
      await time('whole request over HTTP (fetch, same process)', iterations, async () => {
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
      }),
    );

    const width = Math.max(...phases.map((p) => p.name.length));
    const lines = [
      `One GET ${productsPath} (100 products) on ${service.deps.db.kind}, ${iterations} sequential calls per step`,
      `${'step'.padEnd(width)}  median µs  p99 µs   CPU µs`,
      ...phases.map(
        (p) =>
          `${p.name.padEnd(width)}  ${String(p.medianUs).padStart(9)}  ${String(p.p99Us).padStart(6)}  ${String(p.cpuUs).padStart(7)}`,
      ),
    ];
    console.log(lines.join('\n'));
  } finally {
    await service.stop();
    if (postgres?.available) await postgres.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const watchdog = setTimeout(() => {
  console.error('phases: still running after 10 minutes; exiting');
  process.exit(2);
}, 600_000);
watchdog.unref();

main().catch((error: unknown) => {
  console.error(`phases failed: ${(error as Error).stack ?? String(error)}`);
  process.exitCode = 1;
});
