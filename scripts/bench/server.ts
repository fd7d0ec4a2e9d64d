/**
 * One benchmark target in its own process, so the load generator never shares its event loop.
 * `BENCH_TARGET=service` (default): the real service configured from the environment, seeded over
 * its own HTTP API. `BENCH_TARGET=bare`: koa + @koa/router, no database and no auth, answering with
 * the bodies the service produced (`BENCH_SAMPLES_FILE`). Prints one ready line (protocol.ts) on
 * stdout and stops when stdin closes or on SIGTERM, so it never outlives the runner.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, startService } from '@checkout/server';
import Router from '@koa/router';
import Koa from 'koa';
import { productsPath, type ReadyMessage, type Samples } from './protocol.ts';
import { seedService } from './seed.ts';

interface Started {
  ready: ReadyMessage;
  stop(): Promise<void>;
}

async function startServiceTarget(): Promise<Started> {
  const config = loadConfig(process.env);
  const service = await startService(config);
  try {
    const seeded = await seedService(service);
    return {
      ready: {
        bench: 'ready',
        target: 'service',
        url: service.url,
        port: service.port,
        database: service.deps.db.kind,
        ...seeded,
      },
      stop: () => service.stop(),
    };
  } catch (error) {
    await service.stop();
    throw error;
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

async function startBareTarget(): Promise<Started> {
  const file = process.env.BENCH_SAMPLES_FILE;
  if (!file) throw new Error('BENCH_SAMPLES_FILE is required for BENCH_TARGET=bare');
  const samples = JSON.parse(readFileSync(file, 'utf8')) as Samples;
  // Objects, not strings: Koa serialises them on every request, as it does for the service.
  const listBody: unknown = JSON.parse(samples.list);
  const createResponse: unknown = JSON.parse(samples.create);

  const app = new Koa();
  const router = new Router();
  router.get(productsPath, (ctx) => {
    ctx.body = listBody;
  });
  router.post(productsPath, async (ctx) => {
    const body = (await readJson(ctx.req)) as { product?: unknown } | null;
    if (!body?.product) ctx.throw(400, 'product is required');
    ctx.body = createResponse;
  });
  app.use(router.routes());

  const handle = app.callback();
  const server = createServer((req, res) => void handle(req, res));
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    ready: { bench: 'ready', target: 'bare', url: `http://${address}:${port}`, port },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function main(): Promise<void> {
  // A last resort should the runner vanish without closing stdin.
  const maxSeconds = Number(process.env.BENCH_MAX_SECONDS ?? 1800);
  setTimeout(() => {
    console.error(`bench target: still running after ${maxSeconds} s; exiting`);
    process.exit(3);
  }, maxSeconds * 1000).unref();

  let started: Started | undefined;
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    // Requests the load generator abandoned at the end of a run are still being served; closing
    // the database under them would only log errors about the shutdown itself.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    try {
      await started?.stop();
    } catch (error) {
      console.error(`bench target: stop failed: ${(error as Error).message}`);
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  process.stdin.on('end', () => void shutdown());
  process.stdin.on('error', () => void shutdown());
  process.stdin.resume();

  started = process.env.BENCH_TARGET === 'bare' ? await startBareTarget() : await startServiceTarget();
  process.stdout.write(`${JSON.stringify(started.ready)}\n`);
}

main().catch((error: unknown) => {
  console.error(`bench target failed: ${(error as Error).stack ?? String(error)}`);
  process.exit(1);
});
