/** The one configuration of the service, read from the environment and validated, with embedded defaults. */
import { createPrivateKey, randomBytes, X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { devAccounts, devDeployment, devDepositMnemonic } from '@checkout/chain';
import { EvmAddress, type FeeRule, parseFeeTable, parseRateTable, type TestnetConfig } from '@checkout/core';
import { getAddress, isAddress } from 'viem';
import { z } from 'zod';

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** Onramp fees per fiat rail: `currency:rail:bps:fixed:minimum` (research §9: 1000 → 4, 2500 wire → 10). */
const defaultOnrampFees = 'usd:ach_push:40:0:1,usd:wire:40:0:10,eur:sepa:40:0:1';
/** Offramp fees per payout rail (research §7, §14: 4 EUR on 1000 local, wire +20 USD). */
const defaultOfframpFees =
  'eur:local:40:0:1,eur:swift:50:25:25,usd:local:40:0:1,usd:wire:40:20:20,usd:swift:50:25:25,' +
  'gbp:local:40:0:1,gbp:swift:50:25:25,ars:local:100:0:1,mxn:local:100:0:10';

/** Where users wire onramp deposits (sandbox values unless ONRAMP_BANK_ACCOUNT is set). */
export interface DepositBankAccount {
  bank_account_number: string;
  bank_name: string;
  bank_address: string;
  bank_beneficiary_name: string;
  bank_routing_number: string;
}

const DepositBankSchema = z
  .object({
    bank_account_number: z.string().min(1),
    bank_name: z.string().min(1),
    bank_address: z.string().min(1),
    bank_beneficiary_name: z.string().min(1),
    bank_routing_number: z.string().min(1),
  })
  .strict();

const sandboxBank: DepositBankAccount = {
  bank_account_number: '000123456789',
  bank_name: 'Sandbox Bank',
  bank_address: '1 Sandbox Way, New York, NY 10001, US',
  bank_beneficiary_name: 'Stable Checkout Sandbox',
  bank_routing_number: '021000021',
};

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
  TEMPORAL_TLS: optional(z.enum(['true', 'false'])),
  TEMPORAL_TLS_CERT: optional(z.string()),
  TEMPORAL_TLS_KEY: optional(z.string()),
  TEMPORAL_TLS_CA: optional(z.string()),
  TEMPORAL_TLS_SERVER_NAME: optional(z.string().regex(/^[A-Za-z0-9.-]+$/, 'must be a host name')),
  TEMPORAL_API_KEY: optional(z.string().min(1)),
  TEMPORAL_SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(60).default(2),
  SECRET_KEY: optional(z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)')),
  TESTNET_CHAIN_ID: z.coerce.number().int().positive().default(97),
  TEST_TOKEN_ADDRESS: EvmAddress.default('0x5FbDB2315678afecb367f032d93F642f64180aa3').transform((a) =>
    getAddress(a),
  ),
  DEV_API_KEY: optional(z.string().min(20)),
  DEV_WALLET_ADDRESS: optional(EvmAddress),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(10_000_000).default(102_400),
  ROLE: optional(z.enum(['all', 'api', 'worker'])),
  RUN_WORKER: optional(z.enum(['true', 'false'])),
  RPC_URL_ETHEREUM: optional(z.url()),
  RPC_URL_BINANCE_SMART_CHAIN: optional(z.url()),
  RPC_URL_POLYGON: optional(z.url()),
  RPC_URL_BINANCE_SMART_CHAIN_TESTNET: optional(z.url()),
  PUBLIC_RPC_URL_ETHEREUM: optional(z.url()),
  PUBLIC_RPC_URL_BINANCE_SMART_CHAIN: optional(z.url()),
  PUBLIC_RPC_URL_POLYGON: optional(z.url()),
  PUBLIC_RPC_URL_BINANCE_SMART_CHAIN_TESTNET: optional(z.url()),
  CONFIRMATIONS_ETHEREUM: z.coerce.number().int().min(1).max(1000).default(6),
  CONFIRMATIONS_BINANCE_SMART_CHAIN: z.coerce.number().int().min(1).max(1000).default(15),
  CONFIRMATIONS_POLYGON: z.coerce.number().int().min(1).max(1000).default(32),
  CONFIRMATIONS_BINANCE_SMART_CHAIN_TESTNET: z.coerce.number().int().min(1).max(1000).default(1),
  TESTNET_ROUTER_ADDRESS: optional(EvmAddress),
  TESTNET_SWAP_TOKENS: optional(z.string()),
  // The test networks of Ethereum (Sepolia) and Polygon (Amoy): run only when their RPC URL is set.
  RPC_URL_ETHEREUM_TESTNET: optional(z.url()),
  RPC_URL_POLYGON_TESTNET: optional(z.url()),
  PUBLIC_RPC_URL_ETHEREUM_TESTNET: optional(z.url()),
  PUBLIC_RPC_URL_POLYGON_TESTNET: optional(z.url()),
  CONFIRMATIONS_ETHEREUM_TESTNET: z.coerce.number().int().min(1).max(1000).default(1),
  CONFIRMATIONS_POLYGON_TESTNET: z.coerce.number().int().min(1).max(1000).default(1),
  CHAIN_ID_ETHEREUM_TESTNET: z.coerce.number().int().positive().default(11155111),
  CHAIN_ID_POLYGON_TESTNET: z.coerce.number().int().positive().default(80002),
  TEST_TOKEN_ADDRESS_ETHEREUM_TESTNET: optional(EvmAddress),
  TEST_TOKEN_ADDRESS_POLYGON_TESTNET: optional(EvmAddress),
  ROUTER_ADDRESS_ETHEREUM_TESTNET: optional(EvmAddress),
  ROUTER_ADDRESS_POLYGON_TESTNET: optional(EvmAddress),
  SWAP_TOKENS_ETHEREUM_TESTNET: optional(z.string()),
  SWAP_TOKENS_POLYGON_TESTNET: optional(z.string()),
  CHECKOUT_SESSION_TTL_MINUTES: z.coerce.number().int().min(5).max(525_600).default(1440),
  CHECKOUT_GRACE_MINUTES: z.coerce.number().int().min(0).max(43_200).default(60),
  CHAIN_POLL_INTERVAL_MS: z.coerce.number().int().min(50).max(10_000).default(2000),
  CHECKOUT_SCAN_CLAIM_DELAY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  // Below the scan's heartbeat timeout (20 s).
  CHECKOUT_SCAN_INTERVAL_MS: z.coerce.number().int().min(50).max(15_000).default(10_000),
  SMTP_URL: optional(z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')),
  MAIL_FROM: z.string().default('Stable Checkout <payments@localhost>'),
  SMTP_UNKNOWN_OUTCOME_RETRY_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: optional(z.enum(['true', 'false'])),
  DEV_INBOX_DIR: optional(z.string()),
  PUBLIC_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(300),
  TRUST_PROXY: optional(
    z.string().regex(/^(true|false|[0-9])$/, 'must be true, false or the number of proxies (0-9)'),
  ),
  SANDBOX_ENABLED: optional(z.enum(['true', 'false'])),
  BLOCKED_COUNTRIES: z
    .string()
    .regex(/^\s*([A-Za-z]{2}\s*(,\s*[A-Za-z]{2}\s*)*)?$/, 'must be comma-separated two-letter country codes')
    .default('CU,IR,KP,SY,RU,BY'),
  DEPOSIT_MNEMONIC: optional(z.string().min(20)),
  TREASURY_PRIVATE_KEY: optional(z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x and 64 hex characters')),
  ONRAMP_EXPIRY_MINUTES: z.coerce.number().positive().max(525_600).default(4320),
  QUOTE_EXPIRY_MINUTES: z.coerce.number().positive().max(525_600).default(60),
  ONRAMP_FEES: z.string().default(defaultOnrampFees),
  OFFRAMP_FEES: z.string().default(defaultOfframpFees),
  FX_RATES: z.string().default('usd:1,eur:0.92,gbp:0.79,ars:1000,mxn:17.5'),
  ONRAMP_BANK_ACCOUNT: optional(z.string()),
  PAYOUT_SANDBOX_DELAY_MS: z.coerce.number().int().min(0).max(3_600_000).default(2000),
  RAMP_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
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
  temporal: {
    address: string | undefined;
    namespace: string;
    taskQueue: string;
    uiPort: number;
    /** TLS towards a Temporal cluster or Cloud; undefined for plain gRPC (the dev server). */
    tls: TemporalTls | undefined;
    /** Sent as `Authorization: Bearer …` (Temporal Cloud API keys). */
    apiKey: string | undefined;
    /** How long in-flight activities may finish when the worker stops before they are cancelled. */
    shutdownGraceMs: number;
  };
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
  /** RPC endpoint and confirmation count per chain id; a chain without an RPC URL takes no payments. */
  chains: Array<{
    chainId: number;
    name: string;
    rpcUrl: string;
    confirmations: number;
    publicRpcUrl?: string | undefined;
  }>;
  checkout: {
    sessionTtlMinutes: number;
    graceMinutes: number;
    pollIntervalMs: number;
    scanClaimDelayMs: number;
    /** Between two looks of a session's chain scan (a fallback for closed tabs, so slower than the hash watch). */
    scanIntervalMs: number;
  };
  mail: {
    smtpUrl: string | undefined;
    from: string;
    devInboxDir: string | undefined;
    /** Wait before the one retry of a send whose outcome is unknown. */
    unknownOutcomeRetryMs: number;
  };
  webhooks: { allowPrivateAddresses: boolean };
  publicRateLimitPerMinute: number;
  /** Proxies in front of the API whose X-Forwarded-For entries name the client (0: the header is ignored). */
  trustProxyHops: number;
  /** Area B: sandbox routes and the sandbox KYC provider; countries whose users are refused. */
  areaB: { sandboxEnabled: boolean; blockedCountries: string[] };
  /** Onramps, quotes and offramps: keys, expiries, the fee and FX tables, the deposit bank account. */
  ramps: {
    depositMnemonic: string;
    treasuryPrivateKey: `0x${string}`;
    onrampExpiryMinutes: number;
    quoteExpiryMinutes: number;
    onrampFees: FeeRule[];
    offrampFees: FeeRule[];
    /** Fiat units per one USD stablecoin, exact decimal strings. */
    fxRates: Record<string, string>;
    depositBank: DepositBankAccount;
    payoutSandboxDelayMs: number;
    /** How often committed ramp writes whose workflow call failed are handed to Temporal again. */
    reconcileIntervalMs: number;
  };
}

/** What one process runs: `api` (HTTP API), `worker` (Temporal worker and a health port) or `all`. */
export type Role = 'all' | 'api' | 'worker';

/** TLS settings of the Temporal connection, in the SDK's `tls` option shape. */
export interface TemporalTls {
  /** The client certificate and key for mTLS. */
  clientCertPair?: { crt: Buffer; key: Buffer };
  /** CA that signed the server's certificate; the system's roots when absent. */
  serverRootCACertificate?: Buffer;
  /** Name checked against the server's certificate (SNI) instead of the address's host. */
  serverNameOverride?: string;
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
  const production = c.NODE_ENV === 'production';
  for (const name of ['DEPOSIT_MNEMONIC', 'TREASURY_PRIVATE_KEY'] as const) {
    if (production && !c[name])
      throw new ConfigError(`invalid configuration:\n  ${name}: is required in production`);
  }
  const testnets = testnetsOf(c);
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
      tls: temporalTls(c),
      apiKey: c.TEMPORAL_API_KEY,
      shutdownGraceMs: Math.round(c.TEMPORAL_SHUTDOWN_GRACE_SECONDS * 1000),
    },
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
    chains: [
      {
        chainId: 1,
        name: 'Ethereum',
        rpcUrl: c.RPC_URL_ETHEREUM,
        publicRpcUrl: c.PUBLIC_RPC_URL_ETHEREUM,
        confirmations: c.CONFIRMATIONS_ETHEREUM,
      },
      {
        chainId: 56,
        name: 'BNB Smart Chain',
        rpcUrl: c.RPC_URL_BINANCE_SMART_CHAIN,
        publicRpcUrl: c.PUBLIC_RPC_URL_BINANCE_SMART_CHAIN,
        confirmations: c.CONFIRMATIONS_BINANCE_SMART_CHAIN,
      },
      {
        chainId: 137,
        name: 'Polygon',
        rpcUrl: c.RPC_URL_POLYGON,
        publicRpcUrl: c.PUBLIC_RPC_URL_POLYGON,
        confirmations: c.CONFIRMATIONS_POLYGON,
      },
      {
        chainId: c.TESTNET_CHAIN_ID,
        name: 'BNB Smart Chain Testnet',
        rpcUrl: c.RPC_URL_BINANCE_SMART_CHAIN_TESTNET,
        publicRpcUrl: c.PUBLIC_RPC_URL_BINANCE_SMART_CHAIN_TESTNET,
        confirmations: c.CONFIRMATIONS_BINANCE_SMART_CHAIN_TESTNET,
      },
      {
        chainId: c.CHAIN_ID_ETHEREUM_TESTNET,
        name: 'Ethereum Sepolia',
        rpcUrl: c.RPC_URL_ETHEREUM_TESTNET,
        publicRpcUrl: c.PUBLIC_RPC_URL_ETHEREUM_TESTNET,
        confirmations: c.CONFIRMATIONS_ETHEREUM_TESTNET,
      },
      {
        chainId: c.CHAIN_ID_POLYGON_TESTNET,
        name: 'Polygon Amoy',
        rpcUrl: c.RPC_URL_POLYGON_TESTNET,
        publicRpcUrl: c.PUBLIC_RPC_URL_POLYGON_TESTNET,
        confirmations: c.CONFIRMATIONS_POLYGON_TESTNET,
      },
    ].flatMap((chain) => (chain.rpcUrl ? [{ ...chain, rpcUrl: chain.rpcUrl }] : [])),
    checkout: {
      sessionTtlMinutes: c.CHECKOUT_SESSION_TTL_MINUTES,
      graceMinutes: c.CHECKOUT_GRACE_MINUTES,
      pollIntervalMs: c.CHAIN_POLL_INTERVAL_MS,
      scanClaimDelayMs: c.CHECKOUT_SCAN_CLAIM_DELAY_SECONDS * 1000,
      scanIntervalMs: c.CHECKOUT_SCAN_INTERVAL_MS,
    },
    mail: {
      smtpUrl: c.SMTP_URL,
      from: c.MAIL_FROM,
      unknownOutcomeRetryMs: c.SMTP_UNKNOWN_OUTCOME_RETRY_SECONDS * 1000,
      devInboxDir: c.NODE_ENV === 'production' || !c.DEV_INBOX_DIR ? undefined : resolve(c.DEV_INBOX_DIR),
    },
    webhooks: {
      allowPrivateAddresses:
        (c.WEBHOOK_ALLOW_PRIVATE_ADDRESSES ?? String(c.NODE_ENV !== 'production')) === 'true',
    },
    publicRateLimitPerMinute: c.PUBLIC_RATE_LIMIT_PER_MINUTE,
    trustProxyHops:
      c.TRUST_PROXY === 'true' ? 1 : Number(c.TRUST_PROXY === 'false' ? 0 : (c.TRUST_PROXY ?? 0)),
    areaB: {
      sandboxEnabled: (c.SANDBOX_ENABLED ?? String(c.NODE_ENV !== 'production')) === 'true',
      blockedCountries: c.BLOCKED_COUNTRIES.split(',')
        .map((code) => code.trim().toUpperCase())
        .filter((code) => code !== ''),
    },
    ramps: {
      depositMnemonic: c.DEPOSIT_MNEMONIC ?? devDepositMnemonic,
      treasuryPrivateKey: (c.TREASURY_PRIVATE_KEY ?? devAccounts[0]!.privateKey) as `0x${string}`,
      onrampExpiryMinutes: c.ONRAMP_EXPIRY_MINUTES,
      quoteExpiryMinutes: c.QUOTE_EXPIRY_MINUTES,
      onrampFees: table('ONRAMP_FEES', () => parseFeeTable(c.ONRAMP_FEES)),
      offrampFees: table('OFFRAMP_FEES', () => parseFeeTable(c.OFFRAMP_FEES)),
      fxRates: table('FX_RATES', () => Object.fromEntries(parseRateTable(c.FX_RATES))),
      depositBank: c.ONRAMP_BANK_ACCOUNT
        ? table('ONRAMP_BANK_ACCOUNT', () =>
            DepositBankSchema.parse(JSON.parse(c.ONRAMP_BANK_ACCOUNT as string)),
          )
        : sandboxBank,
      payoutSandboxDelayMs: c.PAYOUT_SANDBOX_DELAY_MS,
      reconcileIntervalMs: c.RAMP_RECONCILE_INTERVAL_MS,
    },
  };
}

/** `ROLE`, with `RUN_WORKER=false` as the older spelling of `ROLE=api`; a contradiction is refused. */
function role(value: Role | undefined, runWorker: 'true' | 'false' | undefined): Role {
  if (value === undefined) return runWorker === 'false' ? 'api' : 'all';
  if (runWorker !== undefined && (runWorker === 'true') !== (value !== 'api')) {
    throw new ConfigError(
      `invalid configuration:\n  RUN_WORKER: ${runWorker} contradicts ROLE=${value}; set only ROLE`,
    );
  }
  return value;
}

/**
 * The Temporal connection's TLS from `TEMPORAL_TLS*` and `TEMPORAL_API_KEY`: files are read and checked
 * here (PEM that parses, a key that belongs to its certificate), so a wrong one stops the start.
 */
function temporalTls(c: z.infer<typeof ConfigSchema>): TemporalTls | undefined {
  const problems: string[] = [];
  const files = {
    TEMPORAL_TLS_CERT: c.TEMPORAL_TLS_CERT,
    TEMPORAL_TLS_KEY: c.TEMPORAL_TLS_KEY,
    TEMPORAL_TLS_CA: c.TEMPORAL_TLS_CA,
  };
  const read: Partial<Record<keyof typeof files, Buffer>> = {};
  for (const [name, path] of Object.entries(files) as Array<[keyof typeof files, string | undefined]>) {
    if (path === undefined) continue;
    try {
      read[name] = readFileSync(resolve(path));
    } catch (error) {
      problems.push(`${name}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  const anyTls =
    c.TEMPORAL_TLS_CERT !== undefined ||
    c.TEMPORAL_TLS_KEY !== undefined ||
    c.TEMPORAL_TLS_CA !== undefined ||
    c.TEMPORAL_TLS_SERVER_NAME !== undefined;
  if ((c.TEMPORAL_TLS_CERT === undefined) !== (c.TEMPORAL_TLS_KEY === undefined)) {
    problems.push(
      `${c.TEMPORAL_TLS_CERT === undefined ? 'TEMPORAL_TLS_CERT' : 'TEMPORAL_TLS_KEY'}: is required with ${
        c.TEMPORAL_TLS_CERT === undefined ? 'TEMPORAL_TLS_KEY' : 'TEMPORAL_TLS_CERT'
      } (mTLS needs both)`,
    );
  }
  if (c.TEMPORAL_TLS === 'false' && (anyTls || c.TEMPORAL_API_KEY !== undefined)) {
    problems.push(
      `TEMPORAL_TLS: false contradicts ${anyTls ? 'the TEMPORAL_TLS_* settings' : 'TEMPORAL_API_KEY (an API key is never sent in the clear)'}`,
    );
  }
  if ((anyTls || c.TEMPORAL_API_KEY !== undefined || c.TEMPORAL_TLS === 'true') && !c.TEMPORAL_ADDRESS) {
    problems.push(
      'TEMPORAL_ADDRESS: is required with TLS or an API key (the embedded dev server speaks plain gRPC)',
    );
  }
  let cert: X509Certificate | undefined;
  if (read.TEMPORAL_TLS_CERT) {
    try {
      cert = new X509Certificate(read.TEMPORAL_TLS_CERT);
    } catch {
      problems.push('TEMPORAL_TLS_CERT: is not a PEM certificate');
    }
  }
  if (read.TEMPORAL_TLS_KEY) {
    try {
      const key = createPrivateKey(read.TEMPORAL_TLS_KEY);
      if (cert && !cert.checkPrivateKey(key))
        problems.push('TEMPORAL_TLS_KEY: does not belong to the certificate in TEMPORAL_TLS_CERT');
    } catch {
      problems.push('TEMPORAL_TLS_KEY: is not a PEM private key');
    }
  }
  if (read.TEMPORAL_TLS_CA) {
    try {
      new X509Certificate(read.TEMPORAL_TLS_CA);
    } catch {
      problems.push('TEMPORAL_TLS_CA: is not a PEM certificate');
    }
  }
  if (problems.length > 0) throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);
  // An API key alone implies TLS, as the SDK and Temporal Cloud expect.
  if (!anyTls && c.TEMPORAL_TLS !== 'true' && c.TEMPORAL_API_KEY === undefined) return undefined;
  return {
    ...(read.TEMPORAL_TLS_CERT && read.TEMPORAL_TLS_KEY
      ? { clientCertPair: { crt: read.TEMPORAL_TLS_CERT, key: read.TEMPORAL_TLS_KEY } }
      : {}),
    ...(read.TEMPORAL_TLS_CA ? { serverRootCACertificate: read.TEMPORAL_TLS_CA } : {}),
    ...(c.TEMPORAL_TLS_SERVER_NAME ? { serverNameOverride: c.TEMPORAL_TLS_SERVER_NAME } : {}),
  };
}

/** Parses one table-shaped variable, naming it when it is malformed. */
function table<T>(name: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`invalid configuration:\n  ${name}: ${reason}`);
  }
}

/** A test stablecoin a shopper may swap from on the test network. */
export type SwapToken = {
  symbol: 'USDC' | 'DAI' | 'USDT' | 'BUSD';
  name: string;
  address: `0x${string}`;
  decimals: number;
  noReturnTransfer?: boolean;
};

/**
 * The test networks: BNB Smart Chain's always (the spec's designated test BUSD), Ethereum's and Polygon's
 * when their RPC URL is set. Each defaults to the contracts the local dev chain deploys, which are the same
 * on every chain id; the Ethereum and Polygon settings default to BNB Smart Chain's.
 */
function testnetsOf(c: z.infer<typeof ConfigSchema>): TestnetConfig[] {
  const bsc: TestnetConfig = {
    blockchain: 'binance-smart-chain',
    chainId: c.TESTNET_CHAIN_ID,
    testTokenAddress: c.TEST_TOKEN_ADDRESS as `0x${string}`,
    // Default: the router the local dev chain deploys, like TEST_TOKEN_ADDRESS's default.
    router: getAddress(c.TESTNET_ROUTER_ADDRESS ?? devDeployment(c.TESTNET_CHAIN_ID).router),
    swapTokens: parseSwapTokens(c.TESTNET_SWAP_TOKENS, 'TESTNET_SWAP_TOKENS'),
  };
  const others = (
    [
      ['ethereum', 'ETHEREUM', c.RPC_URL_ETHEREUM_TESTNET, c.CHAIN_ID_ETHEREUM_TESTNET],
      ['polygon', 'POLYGON', c.RPC_URL_POLYGON_TESTNET, c.CHAIN_ID_POLYGON_TESTNET],
    ] as const
  ).flatMap(([blockchain, key, rpcUrl, chainId]): TestnetConfig[] => {
    if (!rpcUrl) return [];
    const token = c[`TEST_TOKEN_ADDRESS_${key}_TESTNET`];
    const router = c[`ROUTER_ADDRESS_${key}_TESTNET`];
    const swaps = c[`SWAP_TOKENS_${key}_TESTNET`];
    return [
      {
        blockchain,
        chainId,
        testTokenAddress: token ? getAddress(token) : bsc.testTokenAddress,
        ...(router || bsc.router ? { router: getAddress(router ?? bsc.router!) } : {}),
        swapTokens:
          swaps !== undefined ? parseSwapTokens(swaps, `SWAP_TOKENS_${key}_TESTNET`) : bsc.swapTokens!,
      },
    ];
  });
  const all = [bsc, ...others];
  const ids = [1, 56, 137, ...all.map((t) => t.chainId)];
  const clash = ids.find((id, i) => ids.indexOf(id) !== i);
  if (clash !== undefined) {
    throw new ConfigError(
      `invalid configuration:\n  chain id ${clash} is given to two chains; each needs its own`,
    );
  }
  return all;
}

/**
 * `TESTNET_SWAP_TOKENS` (or a test network's `SWAP_TOKENS_*`): comma-separated
 * `SYMBOL:address:decimals[:noreturn]`; by default the USDC, DAI and USDT that the local dev chain deploys.
 */
function parseSwapTokens(value: string | undefined, name: string): SwapToken[] {
  if (value === undefined) {
    const dev = devDeployment(97).tokens;
    return (['USDC', 'DAI', 'USDT'] as const).map((symbol) => ({
      symbol,
      name: dev[symbol].name,
      address: dev[symbol].address,
      decimals: dev[symbol].decimals,
      ...(dev[symbol].noReturnTransfer ? { noReturnTransfer: true } : {}),
    }));
  }
  return value
    .split(',')
    .filter((part) => part.trim() !== '')
    .map((part) => {
      const [symbol, address, decimals, flag] = part.trim().split(':');
      if (
        !symbol ||
        !['USDC', 'DAI', 'USDT', 'BUSD'].includes(symbol) ||
        !address ||
        !isAddress(address) ||
        !/^\d+$/.test(decimals ?? '')
      ) {
        throw new ConfigError(
          `invalid configuration:\n  ${name}: "${part}" is not SYMBOL:address:decimals[:noreturn]`,
        );
      }
      return {
        symbol: symbol as SwapToken['symbol'],
        name: `Test ${symbol}`,
        address: getAddress(address),
        decimals: Number(decimals),
        ...(flag === 'noreturn' ? { noReturnTransfer: true } : {}),
      };
    });
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
