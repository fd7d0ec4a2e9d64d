/** The embedded database under DATA_DIR: durable across restarts, locked against a second process, CLI through the server. */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DataDirLockedError, openDatabase } from '@checkout/db';
import { createLogger, loadConfig, type RunningService, startService } from '@checkout/server';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { randomAddress } from '../support/service.ts';

const run = promisify(execFile);
const cli = join(import.meta.dirname, '../../server/src/cli.ts');
const token = {
  blockchain: 'ethereum',
  network: 'mainnet',
  address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
};

describe.skipIf(inject('databaseKind') !== 'pglite')('embedded database in DATA_DIR', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'checkout-embedded-'));
  const env = { NODE_ENV: 'test', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  let service: RunningService | undefined;
  afterAll(async () => {
    await service?.stop();
  });

  const start = async () => startService(loadConfig(env), { logger: createLogger('silent') });
  const cliCreate = async (address: string) => {
    const { stdout } = await run(process.execPath, [cli, 'api-keys', 'create', '--address', address], {
      env: { ...process.env, ...env },
      timeout: 60_000,
    });
    return stdout.trim().split('\n').at(-1)!;
  };

  it('keeps the data across restarts, refuses a second opener, and serves the CLI while running', async () => {
    service = await start();
    const address = randomAddress();
    // The server holds the database: the CLI goes through its admin socket.
    const key = await cliCreate(address);
    expect(key).toMatch(/^ck_live_[\w-]{43}$/);
    const headers = {
      authorization: `Bearer ${key}`,
      'x-address': address,
      'content-type': 'application/json',
    };
    const created = await fetch(`${service.url}/api/v1/products`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ product: { name: 'Durable', email: 'a@example.com', token } }),
    });
    expect(created.status).toBe(200);

    await expect(openDatabase({ kind: 'pglite', dataDir })).rejects.toBeInstanceOf(DataDirLockedError);

    await service.stop();
    service = undefined;

    // With no server running, the CLI opens the database itself.
    const secondAddress = randomAddress();
    const secondKey = await cliCreate(secondAddress);
    expect(secondKey).toMatch(/^ck_/);

    service = await start();
    const list = await fetch(`${service.url}/api/v1/products`, { headers });
    expect(list.status).toBe(200);
    expect(
      ((await list.json()) as { products: Array<{ name: string }> }).products.map((p) => p.name),
    ).toEqual(['Durable']);
    const second = await fetch(`${service.url}/api/v1/products`, {
      headers: { authorization: `Bearer ${secondKey}`, 'x-address': secondAddress },
    });
    expect(second.status).toBe(200);
  }, 120_000);
});
