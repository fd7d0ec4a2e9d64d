/**
 * The chains the service reads: each one's RPC endpoints (several, preferred first), the one shown to
 * browsers, its confirmations and its block time, how phones pay on it, and when its watcher counts as
 * behind.
 */
import { devDeployment } from '@checkout/chain';
import { EvmAddress } from '@checkout/core';
import { type Address, getAddress, parseUnits } from 'viem';
import { z } from 'zod';
import { ConfigError, optional } from './shared.ts';

/** `RPC_URL_<CHAIN>`: one http(s) URL, or several separated by commas (a comma inside a URL is `%2C`). */
const rpcUrls = optional(
  z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((url) => url.trim())
        .filter((url) => url !== ''),
    )
    .pipe(
      z
        .array(z.url({ protocol: /^https?$/, error: 'each URL must be http:// or https://' }))
        .min(1)
        .max(5, 'at most 5 endpoints'),
    ),
);
const confirmations = (fallback: number) => z.coerce.number().int().min(1).max(1000).default(fallback);
const blockTime = (fallback: number) => z.coerce.number().int().min(100).max(60_000).default(fallback);

/**
 * The chains, by the suffix of their settings' names, with their default confirmations and block time. A
 * test network's chain id is a setting of its own (`testnet`). The test networks of Ethereum (Sepolia) and
 * Polygon (Amoy) run only when their RPC URL is set. BNB Smart Chain makes a block every 0.75 s since its
 * 2025 Maxwell upgrade.
 */
const chainTable = [
  { key: 'ETHEREUM', name: 'Ethereum', chainId: 1, confirmations: 6, blockTimeMs: 12_000, sweepGwei: '30' },
  {
    key: 'BINANCE_SMART_CHAIN',
    name: 'BNB Smart Chain',
    chainId: 56,
    confirmations: 15,
    blockTimeMs: 750,
    sweepGwei: '3',
  },
  { key: 'POLYGON', name: 'Polygon', chainId: 137, confirmations: 32, blockTimeMs: 2_000, sweepGwei: '500' },
  {
    key: 'BINANCE_SMART_CHAIN_TESTNET',
    name: 'BNB Smart Chain Testnet',
    testnet: 'bscTestnet',
    confirmations: 1,
    blockTimeMs: 750,
    sweepGwei: '100',
  },
  {
    key: 'ETHEREUM_TESTNET',
    name: 'Ethereum Sepolia',
    testnet: 'ethereumTestnet',
    confirmations: 1,
    blockTimeMs: 12_000,
    sweepGwei: '100',
  },
  {
    key: 'POLYGON_TESTNET',
    name: 'Polygon Amoy',
    testnet: 'polygonTestnet',
    confirmations: 1,
    blockTimeMs: 2_000,
    sweepGwei: '500',
  },
] as const;
type ChainRow = (typeof chainTable)[number];
type ChainKey = ChainRow['key'];

/** One setting per chain: `<prefix><CHAIN>`, each with its schema. */
function perChain<const P extends string, S extends z.ZodType>(
  prefix: P,
  schema: (chain: ChainRow) => S,
): Record<`${P}${ChainKey}`, S> {
  return Object.fromEntries(chainTable.map((chain) => [`${prefix}${chain.key}`, schema(chain)])) as Record<
    `${P}${ChainKey}`,
    S
  >;
}

export const chainsEnv = {
  ...perChain('RPC_URL_', () => rpcUrls),
  ...perChain('PUBLIC_RPC_URL_', () => optional(z.url())),
  ...perChain('CONFIRMATIONS_', (chain) => confirmations(chain.confirmations)),
  ...perChain('BLOCK_TIME_MS_', (chain) => blockTime(chain.blockTimeMs)),
  ...perChain('PHONE_PAYMENT_MODE_', () =>
    z.enum(['deposit_address', 'exact_amount']).default('exact_amount'),
  ),
  ...perChain('DEPOSIT_FACTORY_ADDRESS_', () => optional(EvmAddress)),
  ...perChain('SWEEP_MAX_GAS_PRICE_GWEI_', (chain) =>
    z
      .string()
      .regex(/^\d{1,6}(\.\d{1,9})?$/, 'must be a gas price in gwei, such as 3 or 0.5')
      .default(chain.sweepGwei),
  ),
  CHAIN_WATCHER_MAX_LAG_BLOCKS: z.coerce.number().int().min(1).max(1_000_000).default(50),
};
type ChainsEnv = z.infer<z.ZodObject<typeof chainsEnv>>;

/** A chain the service reads. */
export interface ChainConfig {
  chainId: number;
  name: string;
  /** Its JSON-RPC endpoints, preferred first. */
  rpcUrls: string[];
  confirmations: number;
  blockTimeMs: number;
  publicRpcUrl?: string | undefined;
  /** Set when a session paid from another device gets a deposit address: the forwarders' factory. */
  depositFactory?: Address | undefined;
  /** The highest gas price (wei) a sweep of deposit addresses is sent at; above it the sweep waits. */
  sweepMaxGasPriceWei: bigint;
}

/** RPC endpoints, confirmations and block time per chain id; a chain without an RPC URL takes no payments. */
export function chainsConfig(
  c: ChainsEnv,
  chainIds: Record<Extract<ChainRow, { testnet: string }>['testnet'], number>,
): { chains: ChainConfig[]; chainWatch: { maxLagBlocks: number } } {
  const problems: string[] = [];
  const chains = chainTable.flatMap((chain): ChainConfig[] => {
    const rpcUrls = c[`RPC_URL_${chain.key}`];
    if (!rpcUrls) return [];
    const chainId = 'testnet' in chain ? chainIds[chain.testnet] : chain.chainId;
    const depositFactory = depositFactoryOf(c, chain, chainId);
    if (depositFactory === null) {
      problems.push(
        `PHONE_PAYMENT_MODE_${chain.key}: deposit_address needs DEPOSIT_FACTORY_ADDRESS_${chain.key} (the DepositForwarderFactory deployed on ${chain.name})`,
      );
    }
    return [
      {
        chainId,
        name: chain.name,
        rpcUrls,
        publicRpcUrl: c[`PUBLIC_RPC_URL_${chain.key}`],
        confirmations: c[`CONFIRMATIONS_${chain.key}`],
        blockTimeMs: c[`BLOCK_TIME_MS_${chain.key}`],
        ...(depositFactory ? { depositFactory } : {}),
        sweepMaxGasPriceWei: parseUnits(c[`SWEEP_MAX_GAS_PRICE_GWEI_${chain.key}`], 9),
      },
    ];
  });
  if (problems.length > 0) throw new ConfigError(...problems);
  return { chains, chainWatch: { maxLagBlocks: c.CHAIN_WATCHER_MAX_LAG_BLOCKS } };
}

/**
 * The forwarders' factory of a chain whose phone payments get deposit addresses (`PHONE_PAYMENT_MODE_<CHAIN>`
 * `deposit_address`): `DEPOSIT_FACTORY_ADDRESS_<CHAIN>`, by default on a test network the one the local dev
 * chain deploys (at the same address on every chain id). Undefined in `exact_amount` mode; null when a
 * main network's factory is not given.
 */
function depositFactoryOf(c: ChainsEnv, chain: ChainRow, chainId: number): Address | undefined | null {
  if (c[`PHONE_PAYMENT_MODE_${chain.key}`] !== 'deposit_address') return undefined;
  const given = c[`DEPOSIT_FACTORY_ADDRESS_${chain.key}`];
  if (given) return getAddress(given);
  return 'testnet' in chain ? devDeployment(chainId).depositFactory : null;
}
