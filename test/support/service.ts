/** Boots the real service (HTTP on a loopback port, worker, database) for an integration test file. */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiKey } from '@checkout/db';
import { createLogger, type Logger, loadConfig, type RunningService, startService } from '@checkout/server';
import { privateKeyToAddress } from 'viem/accounts';
import { inject } from 'vitest';
import { createTestDatabase, type TestDatabase } from './database.ts';

/** A running service plus a request helper. */
export interface TestService extends RunningService {
  db: TestDatabase;
  request(method: string, path: string, init?: RequestOptions): Promise<TestResponse>;
  /** A new merchant with one wallet and one key. */
  createMerchant(): Promise<TestMerchant>;
}

export interface TestMerchant {
  key: string;
  address: string;
  merchantId: string;
  addressId: string;
  headers: Record<string, string>;
}

interface RequestOptions {
  headers?: Record<string, string>;
  /** A value to send as JSON (sets Content-Type), or a raw string/Buffer sent as is. */
  json?: unknown;
  body?: string | Buffer;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are inspected field by field
  body: any;
}

/** A random EVM address. */
export function randomAddress(): string {
  return privateKeyToAddress(`0x${randomBytes(32).toString('hex')}`);
}

/** Starts the service on a fresh database; pass `temporal: false` to run without Temporal. */
export async function startTestService(
  options: {
    temporal?: boolean;
    env?: Record<string, string>;
    logger?: Logger;
    /** A database shared with another service instance (the caller closes it). */
    db?: TestDatabase;
    /** Where the service reaches Temporal instead of the shared dev server (e.g. a proxy in front of it). */
    temporalAddress?: string;
    /** A workflow bundle of the test's own (e.g. with fault interceptors) instead of the shared one. */
    workflowBundlePath?: string;
    /** Activities served next to the service's own. */
    extraActivities?: object;
  } = {},
): Promise<TestService> {
  const db = options.db ?? (await createTestDatabase());
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'checkout-data-')),
    TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`,
    LOG_LEVEL: 'silent',
    ...(db.url ? { DATABASE_URL: db.url } : {}),
    ...options.env,
  });
  const service = await startService(config, {
    db,
    logger: options.logger ?? createLogger('silent'),
    ...(options.temporal === false
      ? {}
      : {
          temporalAddress: options.temporalAddress ?? inject('temporalAddress'),
          workflowBundlePath: options.workflowBundlePath ?? inject('workflowBundlePath'),
          ...(options.extraActivities ? { extraActivities: options.extraActivities } : {}),
        }),
  });
  const request = async (method: string, path: string, init: RequestOptions = {}): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...init.headers };
    let body: string | Buffer | undefined = init.body;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${service.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: new Uint8Array(Buffer.from(body)) }),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  };
  return {
    ...service,
    db,
    async stop() {
      await service.stop();
      if (!options.db) await db.close();
    },
    request,
    async createMerchant() {
      const created = await createApiKey(service.deps.db.kysely, { address: randomAddress() });
      return {
        key: created.key,
        address: created.address,
        merchantId: created.merchantId,
        addressId: created.addressId,
        headers: { authorization: `Bearer ${created.key}`, 'x-address': created.address },
      };
    },
  };
}
