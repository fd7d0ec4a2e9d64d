/**
 * The one configuration of the service, read from the environment and validated, with embedded defaults.
 * Each concern declares its variables and builds its part in `config/`; this entry reads them all at once,
 * so every offending variable is named in one error.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EvmAddress, type TestnetConfig } from '@checkout/core';
import { getAddress } from 'viem';
import { z } from 'zod';
import { type ChainConfig, chainsConfig, chainsEnv } from './config/chains.ts';
import { type CheckoutConfig, checkoutConfig, checkoutEnv } from './config/checkout.ts';
import { type ConsoleConfig, consoleConfig, consoleEnv } from './config/console.ts';
import { type MailConfig, mailConfig, mailEnv } from './config/mail.ts';
import { type AreaBConfig, type RampsConfig, rampsConfig, rampsEnv } from './config/ramps.ts';
import { ConfigError, optional } from './config/shared.ts';
import { type TemporalConfig, temporalConfig, temporalEnv } from './config/temporal.ts';
import { testnetsEnv, testnetsOf } from './config/testnets.ts';

export { ConfigError } from './config/shared.ts';
export type { TemporalTls } from './config/temporal.ts';

/** Default receiving wallet of the development merchant (dev chain account #9), the demo shop's too. */
export const devWalletAddress = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';

/** The process itself: where it listens, its data, database, key, logs and role. */
const processEnv = {
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_BASE_URL: optional(z.url()),
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: optional(z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  SECRET_KEY: optional(z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)')),
  DEV_API_KEY: optional(z.string().min(20)),
  DEV_WALLET_ADDRESS: optional(EvmAddress),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(10_000_000).default(102_400),
  ROLE: optional(z.enum(['all', 'api', 'worker'])),
  RUN_WORKER: optional(z.enum(['true', 'false'])),
};

const ConfigSchema = z.object({
  ...processEnv,
  ...temporalEnv,
  ...testnetsEnv,
  ...chainsEnv,
  ...checkoutEnv,
  ...mailEnv,
  ...rampsEnv,
  ...consoleEnv,
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
  temporal: TemporalConfig;
  secretKey: Buffer;
  /** BNB Smart Chain's test network, where the spec's designated test BUSD lives (always known). */
  testnet: TestnetConfig;
  /** Every test network the service knows: BNB Smart Chain's, and Ethereum's and Polygon's when configured. */
  testnets: TestnetConfig[];
  dev: { apiKey: string; walletAddress: string } | undefined;
  logLevel: string;
  bodyLimitBytes: number;
  /** What this process runs: the HTTP API, the Temporal worker, or both. */
  role: Role;
  /** RPC endpoints, confirmations and block time per chain id; a chain without an RPC URL takes no payments. */
  chains: ChainConfig[];
  /** When a chain's watcher counts as behind in /health. */
  chainWatch: { maxLagBlocks: number };
  checkout: CheckoutConfig;
  mail: MailConfig;
  /** The console's sign-in: session and nonce lifetimes. */
  console: ConsoleConfig;
  webhooks: { allowPrivateAddresses: boolean; timeoutMs: number };
  publicRateLimitPerMinute: number;
  /** Proxies in front of the API whose X-Forwarded-For entries name the client (0: the header is ignored). */
  trustProxyHops: number;
  /** Area B: sandbox routes and the sandbox KYC provider; countries whose users are refused. */
  areaB: AreaBConfig;
  /** Onramps, quotes and offramps: keys, expiries, the fee and FX tables, the deposit bank account. */
  ramps: RampsConfig;
}

/** What one process runs: `api` (HTTP API), `worker` (Temporal worker and a health port) or `all`. */
type Role = 'all' | 'api' | 'worker';

/** Reads and validates the configuration from an environment (process.env by default). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(...parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const c = parsed.data;
  const dataDir = resolve(c.DATA_DIR);
  if (c.NODE_ENV === 'production' && !c.SECRET_KEY) {
    throw new ConfigError('SECRET_KEY: is required in production');
  }
  const { areaB, ramps } = rampsConfig(c);
  const testnets = testnetsOf(c);
  return {
    env: c.NODE_ENV,
    port: c.PORT,
    host: c.HOST,
    publicBaseUrl: (c.PUBLIC_BASE_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
    dataDir,
    databaseUrl: c.DATABASE_URL,
    databasePoolSize: c.DATABASE_POOL_SIZE,
    temporal: temporalConfig(c),
    secretKey: c.SECRET_KEY ? Buffer.from(c.SECRET_KEY, 'hex') : localSecretKey(dataDir),
    testnet: testnets[0]!,
    testnets,
    dev:
      c.DEV_API_KEY && c.DEV_WALLET_ADDRESS
        ? { apiKey: c.DEV_API_KEY, walletAddress: getAddress(c.DEV_WALLET_ADDRESS) }
        : undefined,
    logLevel: c.LOG_LEVEL,
    bodyLimitBytes: c.BODY_LIMIT_BYTES,
    role: role(c.ROLE, c.RUN_WORKER),
    ...chainsConfig(c, {
      bscTestnet: c.TESTNET_CHAIN_ID,
      ethereumTestnet: c.CHAIN_ID_ETHEREUM_TESTNET,
      polygonTestnet: c.CHAIN_ID_POLYGON_TESTNET,
    }),
    ...checkoutConfig(c),
    mail: mailConfig(c),
    console: consoleConfig(c),
    areaB,
    ramps,
  };
}

/** `ROLE`, with `RUN_WORKER=false` as the older spelling of `ROLE=api`; a contradiction is refused. */
function role(value: Role | undefined, runWorker: 'true' | 'false' | undefined): Role {
  if (value === undefined) return runWorker === 'false' ? 'api' : 'all';
  if (runWorker !== undefined && (runWorker === 'true') !== (value !== 'api')) {
    throw new ConfigError(`RUN_WORKER: ${runWorker} contradicts ROLE=${value}; set only ROLE`);
  }
  return value;
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
