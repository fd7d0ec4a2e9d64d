/**
 * `npm run bench:console`: what a merchant waits for in the console, on PostgreSQL with
 * `BENCH_CONSOLE_PAYMENTS` (100,000) resolved payments of one wallet.
 * - First load on the wire: the console's HTML shell and the scripts of the sign-in page and of the payments
 *   page, as the service sends them with `Accept-Encoding: br` and with `gzip` (aim ≤ 60 KB).
 * - The payments list's API call (`GET /api/v1/resolved_payments`, as the console makes it): the first page,
 *   a page deep in the cursor, a status filter and a search by e-mail (`q`), p50/p95 over `BENCH_CONSOLE_ROUNDS`
 *   (30) calls each, beside the same wallet's one-product `GET /api/v1/products` as the baseline (the same
 *   authentication, a trivial query) (aim ≤ 300 ms p95).
 * Environment: BENCH_DATABASE_URL (else a throw-away database on BENCH_POSTGRES_ADMIN_URL, default
 * postgres://postgres@127.0.0.1:5432/postgres). Results in `.bench/console.json`.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiKey } from '@checkout/db';
import { loadConfig, startService } from '@checkout/server';
import { sql } from 'kysely';
import { english, generateMnemonic, generatePrivateKey } from 'viem/accounts';
import { defaultAdminUrl, preparePostgres } from '../postgres.ts';
import { createBody, merchantHeaders } from '../protocol.ts';
import { quantile } from '../quantile.ts';
import { readInt } from '../readInt.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const payments = readInt('BENCH_CONSOLE_PAYMENTS', 100_000, 1, 10_000_000);
const rounds = readInt('BENCH_CONSOLE_ROUNDS', 30, 1, 10_000);
const budgetBytes = 60 * 1024;
const listAimMs = 300;

/** The bytes a GET sends on the wire (its body as sent, compressed or not) and its status. */
function wireGet(url: string, encoding: string): Promise<{ status: number; bytes: number; body: Buffer }> {
  return new Promise((done, fail) => {
    const req = request(url, { headers: { 'accept-encoding': encoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        done({ status: res.statusCode ?? 0, bytes: body.length, body });
      });
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

/** The console's scripts a page loads first: the entry and its imports, plus the page's chunk and its imports. */
function scriptsOf(page: 'sign-in' | 'payments'): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'console/dist/console-manifest.json'), 'utf8')) as {
    entry: string;
    imports: string[];
    lazy: Record<string, string[]>;
  };
  const shell = [manifest.entry, ...manifest.imports];
  return [...new Set(page === 'sign-in' ? shell : [...shell, ...(manifest.lazy[page] ?? [])])];
}

/** First load of `page` on the wire with `encoding`: the shell HTML and its scripts, as the service sends them. */
async function firstLoad(base: string, page: 'sign-in' | 'payments', encoding: string): Promise<number> {
  const html = await wireGet(`${base}/console`, encoding);
  if (html.status !== 200) throw new Error(`GET /console answered ${html.status}`);
  let bytes = html.bytes;
  for (const file of scriptsOf(page)) {
    const script = await wireGet(`${base}/console/${file}`, encoding);
    if (script.status !== 200) throw new Error(`GET /console/${file} answered ${script.status}`);
    bytes += script.bytes;
  }
  return bytes;
}

/** p50 and p95 (ms) of `rounds` sequential calls of `path`, each checked to answer 200. */
async function timeCalls(base: string, path: string, headers: Record<string, string>) {
  const times: number[] = [];
  for (let i = 0; i < rounds + 3; i++) {
    const started = performance.now();
    const res = await fetch(`${base}${path}`, { headers });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${text.slice(0, 200)}`);
    // The first three warm the connection pool and the plan cache.
    if (i >= 3) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: round(quantile(times, 0.5)), p95: round(quantile(times, 0.95)) };
}

const round = (ms: number) => Math.round(ms * 10) / 10;

async function main(): Promise<void> {
  if (!existsSync(join(root, 'console/dist/console-manifest.json')))
    execFileSync('npm', ['run', 'build', '-w', 'console'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  const target = await preparePostgres(
    process.env.BENCH_DATABASE_URL || undefined,
    process.env.BENCH_POSTGRES_ADMIN_URL || defaultAdminUrl,
  );
  if (!target.available) throw new Error(`PostgreSQL is needed: ${target.reason}`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    RUN_WORKER: 'false',
    DATABASE_URL: target.url,
    PUBLIC_BASE_URL: 'http://127.0.0.1',
    SECRET_KEY: randomBytes(32).toString('hex'),
    DEPOSIT_MNEMONIC: generateMnemonic(english),
    TREASURY_PRIVATE_KEY: generatePrivateKey(),
  };
  delete env.TEMPORAL_ADDRESS;
  const service = await startService(loadConfig(env));
  try {
    const db = service.deps.db.kysely;
    const key = await createApiKey(db, { address: `0x${randomBytes(20).toString('hex')}`, label: 'bench' });
    const headers = merchantHeaders({ key: key.key, address: key.address });
    const created = await fetch(`${service.url}/api/v1/products`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: createBody,
    });
    const product = ((await created.json()) as { product: { id: string } }).product;
    const seedStarted = performance.now();
    // One payment's row, repeated with its own id, hash, e-mail and time (a minute apart, newest first).
    await sql`
      insert into resolved_payments (id, product_id, expected_payment_id, is_test, dollar_amount, metadata,
        user_email, custom_fields, chain_id, expected_token, received_token, expected_token_amount,
        received_token_amount, amount_difference, receiving_address, sender_address, tx_id, log_index,
        tx_success, tx_failure, swapped, late, created_at)
      select gen_random_uuid(), ${product.id}::uuid, gen_random_uuid(), false, 12.50, null,
        'shopper' || n || '@example.com', '{}'::jsonb, 1, p.token, p.token, 12500000, 12500000, '0.0',
        ${key.address}, '0x' || lpad(to_hex(n), 40, '0'), '0x' || lpad(to_hex(n), 64, '0'), 0,
        n % 50 <> 0, n % 50 = 0, false, false, now() - make_interval(mins => n)
      from generate_series(1, ${payments}) as n,
        (select jsonb_build_object('symbol', token_symbol, 'address', token_address, 'name', token_name,
          'decimal_count', token_decimals, 'blockchain', token_blockchain, 'network', token_network) as token
         from products where id = ${product.id}::uuid) p
    `.execute(db);
    await sql`analyze resolved_payments`.execute(db);
    const seededMs = performance.now() - seedStarted;
    const list = '/api/v1/resolved_payments';
    const firstPage = (await (await fetch(`${service.url}${list}`, { headers })).json()) as {
      resolved_payments: Array<{ id: string }>;
    };
    if (firstPage.resolved_payments.length === 0) throw new Error('the list answered no payments');
    // A cursor half-way down: the id of the payment made `payments / 2` minutes ago.
    const deep = await sql<{ id: string }>`
      select id from resolved_payments order by created_at desc, id desc offset ${Math.floor(payments / 2)} limit 1
    `.execute(db);
    const calls = {
      'GET /api/v1/products (baseline)': await timeCalls(service.url, '/api/v1/products', headers),
      'first page': await timeCalls(service.url, list, headers),
      'deep cursor page': await timeCalls(service.url, `${list}?cursor=${deep.rows[0]!.id}`, headers),
      'status filter (failed)': await timeCalls(service.url, `${list}?status=failed`, headers),
      'search by e-mail': await timeCalls(service.url, `${list}?q=shopper77777@example.com`, headers),
    };
    const bytes = {
      'sign-in': {
        br: await firstLoad(service.url, 'sign-in', 'br'),
        gzip: await firstLoad(service.url, 'sign-in', 'gzip'),
      },
      payments: {
        br: await firstLoad(service.url, 'payments', 'br'),
        gzip: await firstLoad(service.url, 'payments', 'gzip'),
      },
    };
    const slowest = Math.max(
      ...Object.entries(calls)
        .filter(([k]) => !k.endsWith('(baseline)'))
        .map(([, v]) => v.p95),
    );
    const largest = Math.max(bytes['sign-in'].br, bytes.payments.br);
    const report = {
      payments,
      rounds,
      seededMs: Math.round(seededMs),
      firstLoadBytes: bytes,
      listCalls: calls,
      aims: {
        firstLoad: { budgetBytes, largestBrotli: largest, met: largest <= budgetBytes },
        list: { aimMs: listAimMs, slowestP95: slowest, met: slowest <= listAimMs },
      },
    };
    mkdirSync(join(root, '.bench'), { recursive: true });
    writeFileSync(join(root, '.bench/console.json'), `${JSON.stringify(report, null, 2)}\n`);
    console.log(`console first load on the wire (${payments.toLocaleString('en')} payments in PostgreSQL):`);
    for (const [page, b] of Object.entries(bytes))
      console.log(
        `  ${page.padEnd(9)} ${String(b.br).padStart(7)} B brotli ${String(b.gzip).padStart(7)} B gzip`,
      );
    console.log(`payments list API, ${rounds} calls each (ms):`);
    for (const [name, t] of Object.entries(calls))
      console.log(`  ${name.padEnd(24)} p50 ${String(t.p50).padStart(6)}  p95 ${String(t.p95).padStart(6)}`);
    console.log(
      `aims: first load ≤ ${budgetBytes} B ${report.aims.firstLoad.met ? 'met' : 'MISSED'}; list p95 ≤ ${listAimMs} ms ${report.aims.list.met ? 'met' : 'MISSED'}`,
    );
    if (!report.aims.firstLoad.met || !report.aims.list.met) process.exitCode = 1;
  } finally {
    await service.stop();
    await target.drop();
  }
}

await main();
