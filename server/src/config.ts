/** The one configuration of the service, read from the environment and validated, with embedded defaults. */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EvmAddress } from '@checkout/core';
import { getAddress } from 'viem';
import { z } from 'zod';

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_BASE_URL: optional(z.url()),
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: optional(z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  TEMPORAL_ADDRESS: optional(z.string()),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('checkout'),
  TEMPORAL_UI_PORT: z.coerce.number().int().min(1).max(65535).default(8233),
  SECRET_KEY: optional(z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)')),
  TESTNET_CHAIN_ID: z.coerce.number().int().positive().default(97),
  TEST_TOKEN_ADDRESS: EvmAddress.default('0x5FbDB2315678afecb367f032d93F642f64180aa3').transform((a) =>
    getAddress(a),
  ),
  DEV_API_KEY: optional(z.string().min(20)),
  DEV_WALLET_ADDRESS: optional(EvmAddress),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(10_000_000).default(102_400),
  RUN_WORKER: z.enum(['true', 'false']).default('true'),
});

/** Validated configuration. */
export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicBaseUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  temporal: { address: string | undefined; namespace: string; taskQueue: string; uiPort: number };
  secretKey: Buffer;
  testnet: { chainId: number; testTokenAddress: `0x${string}` };
  dev: { apiKey: string; walletAddress: string } | undefined;
  logLevel: string;
  bodyLimitBytes: number;
  runWorker: boolean;
}

/** The configuration is wrong; lists every offending variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and validates the configuration from an environment (process.env by default). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const dataDir = resolve(c.DATA_DIR);
  if (c.NODE_ENV === 'production' && !c.SECRET_KEY) {
    throw new ConfigError('invalid configuration:\n  SECRET_KEY: is required in production');
  }
  return {
    env: c.NODE_ENV,
    port: c.PORT,
    host: c.HOST,
    publicBaseUrl: (c.PUBLIC_BASE_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
    dataDir,
    databaseUrl: c.DATABASE_URL,
    databasePoolSize: c.DATABASE_POOL_SIZE,
    temporal: {
      address: c.TEMPORAL_ADDRESS,
      namespace: c.TEMPORAL_NAMESPACE,
      taskQueue: c.TEMPORAL_TASK_QUEUE,
      uiPort: c.TEMPORAL_UI_PORT,
    },
    secretKey: c.SECRET_KEY ? Buffer.from(c.SECRET_KEY, 'hex') : localSecretKey(dataDir),
    testnet: { chainId: c.TESTNET_CHAIN_ID, testTokenAddress: c.TEST_TOKEN_ADDRESS as `0x${string}` },
    dev:
      c.DEV_API_KEY && c.DEV_WALLET_ADDRESS
        ? { apiKey: c.DEV_API_KEY, walletAddress: getAddress(c.DEV_WALLET_ADDRESS) }
        : undefined,
    logLevel: c.LOG_LEVEL,
    bodyLimitBytes: c.BODY_LIMIT_BYTES,
    runWorker: c.RUN_WORKER === 'true',
  };
}

/** Development default: a random key kept in the data directory (owner-only permissions). */
function localSecretKey(dataDir: string): Buffer {
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('hex'), { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return key;
}
