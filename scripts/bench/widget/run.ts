/**
 * `npm run bench:widget`: size and first-render time of the `<crypto-checkout>` element. Builds the
 * widget (production), reports raw, gzip (9) and brotli (11) sizes of the first load (the entry with every
 * chunk it imports statically: what makes the element payable) and of everything a payment loads (the
 * payment module with the wallet's or the QR code's), and the bytes on the wire (response heads and bodies) when the service's own
 * `/widget/` route sends them as identity, gzip and brotli. Then times navigation → first render in
 * headless Chromium (the merchant's `<script>` tag names the loader; files from the service's route,
 * cache disabled, median of BENCH_WIDGET_RUNS, unthrottled and 4× CPU slowdown) against a trivial Lit
 * element built in the same run. Prints tables and the aims; writes `.bench/widget-<timestamp>.json`.
 *
 * Environment: BENCH_WIDGET_RUNS (5), CHROMIUM_PATH (/usr/bin/chromium).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTrivialElement, type TrivialBuild, trivialTag } from './baseline.ts';
import { type BenchBrowser, launchBenchBrowser, recordWalletRequests, timeFirstRender } from './browser.ts';
import { type PageServer, startPageServer } from './server.ts';
import { type Size, sizeOf, staticClosure, sumSizes } from './sizes.ts';
import { wireTotal } from './wire.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const widgetDir = join(root, 'widget', 'dist');
/** Public names: loaders of the content-hashed files that `widget-manifest.json` names. */
const classicScript = 'crypto-checkout.iife.js';
const moduleScript = 'crypto-checkout.js';
/** What each encoding's request sends as Accept-Encoding (Chromium's own header for brotli). */
const encodings = [
  ['identity', undefined],
  ['gzip', 'gzip, deflate'],
  ['brotli', 'gzip, deflate, br, zstd'],
] as const;
const cpuRates = [1, 4];
const aims = { firstScriptGzip: 16_000, paymentGzip: 85_000, renderRatio: 1.3 };

function readRuns(): number {
  const raw = process.env.BENCH_WIDGET_RUNS;
  const value = raw ? Number(raw) : 5;
  if (!Number.isInteger(value) || value < 1 || value > 100)
    throw new Error(`BENCH_WIDGET_RUNS must be an integer from 1 to 100, got "${raw}"`);
  return value;
}

const runs = readRuns();
let browser: BenchBrowser | undefined;
let server: PageServer | undefined;
let trivial: TrivialBuild | undefined;

async function cleanUp(): Promise<void> {
  await browser?.close();
  await server?.close();
  if (trivial) rmSync(dirname(trivial.dir), { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });
}

function buildWidget(): Promise<number> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn('npm', ['run', 'build', '-w', 'widget'], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.once('error', fail);
    child.once('exit', (code) => {
      if (code === 0) done(performance.now() - started);
      else fail(new Error(`widget build failed (exit ${code}):\n${output}`));
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
const verdict = (pass: boolean) => (pass ? 'PASS' : 'MISS');

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r, ri) =>
      r
        .map((cell, i) => (i === 0 || ri === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
        .join('  '),
    )
    .join('\n');
}

/** One timed page: samples and medians per CPU rate. */
interface RenderSeries {
  cpuRate: number;
  samples: { firstRender: number; ready: number; scriptLoaded: number; fcp: number | null }[];
  firstRender: number;
  scriptToRender: number;
  ready: number;
}

async function main(): Promise<void> {
  const buildMs = await buildWidget();
  trivial = await buildTrivialElement(root);
  const manifest = JSON.parse(readFileSync(join(widgetDir, 'widget-manifest.json'), 'utf8')) as {
    classic: string;
    module: string;
    payment: string;
    wallet: string;
    qr: string;
    messages: { en: string; es: string; pt: string };
    refunds: { claim: string; pay: string };
  };

  const files = {
    classic: sizeOf(join(widgetDir, manifest.classic)),
    module: sizeOf(join(widgetDir, manifest.module)),
  };
  // A payment starts with the payment module, fetched together with the wallet's or the QR code's.
  const paymentFiles = staticClosure(widgetDir, manifest.payment);
  const paymentTotal = sumSizes(paymentFiles.map((f) => sizeOf(join(widgetDir, f))));
  const walletModuleFiles = staticClosure(widgetDir, manifest.wallet);
  const walletFiles = [...new Set([...paymentFiles, ...walletModuleFiles])];
  const walletSizes = Object.fromEntries(walletFiles.map((f) => [f, sizeOf(join(widgetDir, f))]));
  const walletTotal = sumSizes(Object.values(walletSizes));
  const moduleClosure = staticClosure(widgetDir, moduleScript);
  const moduleFirst = sumSizes(moduleClosure.map((f) => sizeOf(join(widgetDir, f))));
  const payment = {
    classic: sumSizes([files.classic, walletTotal]),
    module: sumSizes([
      moduleFirst,
      ...walletFiles.filter((f) => !moduleClosure.includes(f)).map((f) => walletSizes[f] as Size),
    ]),
  };
  // Paying from another device loads the payment request (QR code) module instead of the wallet.
  const qrFiles = [...new Set([...paymentFiles, ...staticClosure(widgetDir, manifest.qr)])];
  const qrTotal = sumSizes(qrFiles.map((f) => sizeOf(join(widgetDir, f))));
  const qrPayment = {
    classic: sumSizes([files.classic, qrTotal]),
    module: sumSizes([
      moduleFirst,
      ...qrFiles.filter((f) => !moduleClosure.includes(f)).map((f) => sizeOf(join(widgetDir, f))),
    ]),
  };
  // The texts of the page's language come with the view, before the element is payable (English here).
  const texts = sizeOf(join(widgetDir, manifest.messages.en));
  // What the element needs before it is payable: the first load and the texts it fetches with the view.
  const withTexts = sumSizes([moduleFirst, texts]);
  const trivialSize = sizeOf(join(trivial.dir, trivial.script));
  // The hosted refund pages (their own build): each page's module script and what it imports statically.
  const refundPages = Object.fromEntries(
    (['claim', 'pay'] as const).map((page) => {
      const closure = staticClosure(widgetDir, manifest.refunds[page]);
      return [
        page,
        { files: closure.length, size: sumSizes(closure.map((f) => sizeOf(join(widgetDir, f)))) },
      ];
    }),
  ) as Record<'claim' | 'pay', { files: number; size: Size }>;

  server = await startPageServer({
    widgetDir,
    classicScript,
    walletModule: manifest.wallet,
    trivialDir: trivial.dir,
    trivialScript: trivial.script,
  });
  // The loader's bytes are part of the first script on a merchant's page.
  const wirePaths = {
    classicFirst: [classicScript, manifest.classic],
    moduleFirst: moduleClosure,
  };
  const walletOnly = {
    classic: walletFiles,
    module: walletFiles.filter((f) => !moduleClosure.includes(f)),
  };
  const wireGroups = {
    'first script, classic (loader + script)': wirePaths.classicFirst,
    'first script, ES (loader + entry + imports)': wirePaths.moduleFirst,
    'payment, classic path': [...wirePaths.classicFirst, ...walletOnly.classic],
    'payment, ES path': [...wirePaths.moduleFirst, ...walletOnly.module],
  };
  const wire: Record<
    string,
    Record<string, { head: number; body: number; files: number; encodings: string[] }>
  > = {};
  for (const [group, paths] of Object.entries(wireGroups)) {
    wire[group] = {};
    for (const [name, accept] of encodings) {
      const total = await wireTotal(
        server.origin,
        paths.map((p) => `/widget/${p}`),
        accept,
      );
      (wire[group] as Record<string, unknown>)[name] = { ...total, files: paths.length };
    }
  }

  browser = await launchBenchBrowser();

  const requested = await recordWalletRequests(browser.context, `${server.origin}/wallet.html`);
  const requestedWallet = requested.map((p) => p.replace(/^\/widget\//, '')).sort();
  const walletMatches = JSON.stringify(requestedWallet) === JSON.stringify([...walletModuleFiles].sort());

  const pages = {
    widget: {
      url: `${server.origin}/widget.html`,
      tag: 'crypto-checkout',
      script: `/widget/${manifest.classic}`,
    },
    trivial: { url: `${server.origin}/trivial.html`, tag: trivialTag, script: `/t/${trivial.script}` },
  };
  const series: Record<'widget' | 'trivial', RenderSeries[]> = { widget: [], trivial: [] };
  for (const cpuRate of cpuRates) {
    const samples: Record<'widget' | 'trivial', RenderSeries['samples']> = { widget: [], trivial: [] };
    // One unrecorded load of each warms Chromium; then the two pages alternate.
    for (let i = 0; i <= runs; i++) {
      for (const name of ['widget', 'trivial'] as const) {
        const p = pages[name];
        const timing = await timeFirstRender(browser.context, p.url, p.tag, p.script, cpuRate);
        if (i > 0) samples[name].push(timing);
      }
    }
    for (const name of ['widget', 'trivial'] as const) {
      const s = samples[name];
      series[name].push({
        cpuRate,
        samples: s,
        firstRender: median(s.map((t) => t.firstRender)),
        scriptToRender: median(s.map((t) => t.firstRender - t.scriptLoaded)),
        ready: median(s.map((t) => t.ready)),
      });
    }
  }
  await browser.close();
  await server.close();

  const sizeRows = [
    ['bundle', 'files', 'raw', 'gzip', 'brotli'],
    [
      'first load, classic (iife)',
      '1',
      kb(files.classic.raw),
      kb(files.classic.gzip),
      kb(files.classic.brotli),
    ],
    [
      'first load, ES (entry + static imports)',
      String(moduleClosure.length),
      kb(moduleFirst.raw),
      kb(moduleFirst.gzip),
      kb(moduleFirst.brotli),
    ],
    ['texts of one language (en)', '1', kb(texts.raw), kb(texts.gzip), kb(texts.brotli)],
    [
      'first load with its texts, ES (en)',
      String(moduleClosure.length + 1),
      kb(withTexts.raw),
      kb(withTexts.gzip),
      kb(withTexts.brotli),
    ],
    [
      'payment module + static chunks',
      String(paymentFiles.length),
      kb(paymentTotal.raw),
      kb(paymentTotal.gzip),
      kb(paymentTotal.brotli),
    ],
    [
      'payment + wallet modules, static chunks',
      String(walletFiles.length),
      kb(walletTotal.raw),
      kb(walletTotal.gzip),
      kb(walletTotal.brotli),
    ],
    [
      'payment, classic path',
      String(1 + walletFiles.length),
      kb(payment.classic.raw),
      kb(payment.classic.gzip),
      kb(payment.classic.brotli),
    ],
    [
      'payment, ES path',
      String(new Set([...moduleClosure, ...walletFiles]).size),
      kb(payment.module.raw),
      kb(payment.module.gzip),
      kb(payment.module.brotli),
    ],
    [
      'payment + QR modules, static chunks',
      String(qrFiles.length),
      kb(qrTotal.raw),
      kb(qrTotal.gzip),
      kb(qrTotal.brotli),
    ],
    [
      'QR payment, classic path',
      String(1 + qrFiles.length),
      kb(qrPayment.classic.raw),
      kb(qrPayment.classic.gzip),
      kb(qrPayment.classic.brotli),
    ],
    [
      'QR payment, ES path',
      String(new Set([...moduleClosure, ...qrFiles]).size),
      kb(qrPayment.module.raw),
      kb(qrPayment.module.gzip),
      kb(qrPayment.module.brotli),
    ],
    ...(['claim', 'pay'] as const).map((page) => [
      `refund ${page} page, first script (ES)`,
      String(refundPages[page].files),
      kb(refundPages[page].size.raw),
      kb(refundPages[page].size.gzip),
      kb(refundPages[page].size.brotli),
    ]),
    ['baseline: trivial Lit (iife)', '1', kb(trivialSize.raw), kb(trivialSize.gzip), kb(trivialSize.brotli)],
  ];
  const timeRows = [['first render (median ms)', 'CPU', 'nav→render', 'script→render', 'nav→view shown']];
  for (const name of ['widget', 'trivial'] as const) {
    for (const s of series[name]) {
      timeRows.push([
        name === 'widget' ? '<crypto-checkout> (iife)' : 'trivial Lit (iife)',
        `${s.cpuRate}×`,
        s.firstRender.toFixed(1),
        s.scriptToRender.toFixed(1),
        name === 'widget' ? s.ready.toFixed(1) : '–',
      ]);
    }
  }

  const ratios = cpuRates.map((rate, i) => ({
    cpuRate: rate,
    ratio: (series.widget[i] as RenderSeries).firstRender / (series.trivial[i] as RenderSeries).firstRender,
  }));
  const checks = [
    {
      aim: `first load (classic) ≤ ${kb(aims.firstScriptGzip)} gzip`,
      value: kb(files.classic.gzip),
      pass: files.classic.gzip <= aims.firstScriptGzip,
    },
    {
      aim: `first load (ES) ≤ ${kb(aims.firstScriptGzip)} gzip`,
      value: kb(moduleFirst.gzip),
      pass: moduleFirst.gzip <= aims.firstScriptGzip,
    },
    {
      aim: `first load (ES) with its texts ≤ ${kb(aims.firstScriptGzip)} gzip`,
      value: kb(withTexts.gzip),
      pass: withTexts.gzip <= aims.firstScriptGzip,
    },
    {
      aim: `payment, classic path ≤ ${kb(aims.paymentGzip)} gzip`,
      value: kb(payment.classic.gzip),
      pass: payment.classic.gzip <= aims.paymentGzip,
    },
    {
      aim: `payment, ES path ≤ ${kb(aims.paymentGzip)} gzip`,
      value: kb(payment.module.gzip),
      pass: payment.module.gzip <= aims.paymentGzip,
    },
    {
      aim: `QR payment, classic path ≤ ${kb(aims.paymentGzip)} gzip`,
      value: kb(qrPayment.classic.gzip),
      pass: qrPayment.classic.gzip <= aims.paymentGzip,
    },
    ...ratios.map((r) => ({
      aim: `first render ≤ ${aims.renderRatio}× trivial, ${r.cpuRate}× CPU`,
      value: `${r.ratio.toFixed(2)}×`,
      pass: r.ratio <= aims.renderRatio,
    })),
  ];

  console.log(
    `\nwidget build ${(buildMs / 1000).toFixed(1)} s (npm run build -w widget); KB = 1000 bytes; each file compressed on its own`,
  );
  console.log(`wallet static chunks: ${walletModuleFiles.join(', ')}`);
  console.log(
    `Chromium requested for the wallet module: ${requestedWallet.join(', ')} (${walletMatches ? 'matches' : 'DIFFERS from'} the static imports)\n`,
  );
  console.log(table(sizeRows));
  console.log('');
  const wireRows = [['on the wire, head + body', 'files', 'identity', 'gzip', 'brotli', 'br/identity']];
  for (const [group, byEncoding] of Object.entries(wire)) {
    const total = (name: string) => {
      const w = byEncoding[name] as { head: number; body: number };
      return w.head + w.body;
    };
    wireRows.push([
      group,
      String((byEncoding.identity as { files: number }).files),
      kb(total('identity')),
      kb(total('gzip')),
      kb(total('brotli')),
      (total('brotli') / total('identity')).toFixed(2),
    ]);
  }
  console.log("through the service's /widget/ route (Accept-Encoding: none, gzip, Chromium's)");
  console.log(table(wireRows));
  console.log('');
  console.log(
    `${runs} runs each, after one warm-up; the element through its loader from the service's route (baseline gzip), cache disabled, 127.0.0.1`,
  );
  console.log(table(timeRows));
  console.log('');
  console.log(table([['aim', 'value', ''], ...checks.map((c) => [c.aim, c.value, verdict(c.pass)])]));

  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const outDir = join(root, '.bench');
  mkdirSync(outDir, { recursive: true });
  const outFile = join(outDir, `widget-${stamp}.json`);
  writeFileSync(
    outFile,
    `${JSON.stringify(
      {
        at: new Date().toISOString(),
        runs,
        buildMs,
        sizes: {
          classic: files.classic,
          moduleFirst: { files: moduleClosure, ...moduleFirst },
          texts,
          withTexts,
          paymentModule: { files: paymentFiles, total: paymentTotal },
          wallet: {
            files: walletSizes,
            total: walletTotal,
            requestedByChromium: requestedWallet,
            matchesStaticImports: walletMatches,
          },
          payment,
          qr: { files: qrFiles, total: qrTotal, payment: qrPayment },
          refundPages,
          trivial: trivialSize,
        },
        manifest,
        wire,
        render: series,
        aims,
        checks,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nwrote ${relative(root, outFile)}`);
}

try {
  await main();
} finally {
  await cleanUp();
}
