/**
 * The example merchant server (examples/merchant-server/server.ts) run as a merchant runs it: a child process
 * with its settings in the environment, on a free loopback port, started once it says it listens.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The running shop. */
export interface ExampleShop {
  url: string;
  stop(): Promise<void>;
}

/** A port free on loopback right now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((done) => probe.close(done));
  return port;
}

/** Chooses the shop's port, so its webhook URL is known before the product that sends to it exists. */
export async function exampleShopPort(): Promise<{ port: number; webhookUrl: string }> {
  const port = await freePort();
  return { port, webhookUrl: `http://127.0.0.1:${port}/webhooks` };
}

/** Starts the shop for `productId` of the merchant with `key` and `wallet`, on `port`. */
export async function startExampleShop(input: {
  checkoutUrl: string;
  key: string;
  wallet: string;
  productId: string;
  port: number;
}): Promise<ExampleShop> {
  const output: string[] = [];
  const shop: ChildProcess = spawn(process.execPath, [resolve(root, 'examples/merchant-server/server.ts')], {
    env: {
      ...process.env,
      CHECKOUT_URL: input.checkoutUrl,
      CHECKOUT_API_KEY: input.key,
      CHECKOUT_WALLET: input.wallet,
      PRODUCT_ID: input.productId,
      PORT: String(input.port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const started = new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the shop did not start: ${output.join('')}`)), 20_000);
    const heard = (chunk: Buffer) => {
      output.push(chunk.toString());
      if (output.join('').includes('shop listening')) {
        clearTimeout(timer);
        done();
      }
    };
    shop.stdout?.on('data', heard);
    shop.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    shop.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`the shop exited (${code}): ${output.join('')}`));
    });
  });
  await started;
  return {
    url: `http://127.0.0.1:${input.port}`,
    async stop() {
      if (shop.exitCode !== null) return;
      shop.kill('SIGTERM');
      await once(shop, 'exit');
    },
  };
}
