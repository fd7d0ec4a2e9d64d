/**
 * The chains the service reads: each one's RPC endpoints (several, preferred first), the one shown to
 * browsers, its confirmations and its block time, and when its watcher counts as behind.
 */
import { z } from 'zod';
import { optional } from './shared.ts';

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

export const chainsEnv = {
  RPC_URL_ETHEREUM: rpcUrls,
  RPC_URL_BINANCE_SMART_CHAIN: rpcUrls,
  RPC_URL_POLYGON: rpcUrls,
  RPC_URL_BINANCE_SMART_CHAIN_TESTNET: rpcUrls,
  PUBLIC_RPC_URL_ETHEREUM: optional(z.url()),
  PUBLIC_RPC_URL_BINANCE_SMART_CHAIN: optional(z.url()),
  PUBLIC_RPC_URL_POLYGON: optional(z.url()),
  PUBLIC_RPC_URL_BINANCE_SMART_CHAIN_TESTNET: optional(z.url()),
  CONFIRMATIONS_ETHEREUM: confirmations(6),
  CONFIRMATIONS_BINANCE_SMART_CHAIN: confirmations(15),
  CONFIRMATIONS_POLYGON: confirmations(32),
  CONFIRMATIONS_BINANCE_SMART_CHAIN_TESTNET: confirmations(1),
  // The test networks of Ethereum (Sepolia) and Polygon (Amoy): run only when their RPC URL is set.
  RPC_URL_ETHEREUM_TESTNET: rpcUrls,
  RPC_URL_POLYGON_TESTNET: rpcUrls,
  PUBLIC_RPC_URL_ETHEREUM_TESTNET: optional(z.url()),
  PUBLIC_RPC_URL_POLYGON_TESTNET: optional(z.url()),
  CONFIRMATIONS_ETHEREUM_TESTNET: confirmations(1),
  CONFIRMATIONS_POLYGON_TESTNET: confirmations(1),
  // Each chain's time between blocks (BNB Smart Chain: 0.75 s since its 2025 Maxwell upgrade).
  BLOCK_TIME_MS_ETHEREUM: blockTime(12_000),
  BLOCK_TIME_MS_BINANCE_SMART_CHAIN: blockTime(750),
  BLOCK_TIME_MS_POLYGON: blockTime(2_000),
  BLOCK_TIME_MS_BINANCE_SMART_CHAIN_TESTNET: blockTime(750),
  BLOCK_TIME_MS_ETHEREUM_TESTNET: blockTime(12_000),
  BLOCK_TIME_MS_POLYGON_TESTNET: blockTime(2_000),
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
}

/** RPC endpoints, confirmations and block time per chain id; a chain without an RPC URL takes no payments. */
export function chainsConfig(
  c: ChainsEnv,
  chainIds: { bscTestnet: number; ethereumTestnet: number; polygonTestnet: number },
): { chains: ChainConfig[]; chainWatch: { maxLagBlocks: number } } {
  const chains = [
    {
      chainId: 1,
      name: 'Ethereum',
      rpcUrls: c.RPC_URL_ETHEREUM,
      publicRpcUrl: c.PUBLIC_RPC_URL_ETHEREUM,
      confirmations: c.CONFIRMATIONS_ETHEREUM,
      blockTimeMs: c.BLOCK_TIME_MS_ETHEREUM,
    },
    {
      chainId: 56,
      name: 'BNB Smart Chain',
      rpcUrls: c.RPC_URL_BINANCE_SMART_CHAIN,
      publicRpcUrl: c.PUBLIC_RPC_URL_BINANCE_SMART_CHAIN,
      confirmations: c.CONFIRMATIONS_BINANCE_SMART_CHAIN,
      blockTimeMs: c.BLOCK_TIME_MS_BINANCE_SMART_CHAIN,
    },
    {
      chainId: 137,
      name: 'Polygon',
      rpcUrls: c.RPC_URL_POLYGON,
      publicRpcUrl: c.PUBLIC_RPC_URL_POLYGON,
      confirmations: c.CONFIRMATIONS_POLYGON,
      blockTimeMs: c.BLOCK_TIME_MS_POLYGON,
    },
    {
      chainId: chainIds.bscTestnet,
      name: 'BNB Smart Chain Testnet',
      rpcUrls: c.RPC_URL_BINANCE_SMART_CHAIN_TESTNET,
      publicRpcUrl: c.PUBLIC_RPC_URL_BINANCE_SMART_CHAIN_TESTNET,
      confirmations: c.CONFIRMATIONS_BINANCE_SMART_CHAIN_TESTNET,
      blockTimeMs: c.BLOCK_TIME_MS_BINANCE_SMART_CHAIN_TESTNET,
    },
    {
      chainId: chainIds.ethereumTestnet,
      name: 'Ethereum Sepolia',
      rpcUrls: c.RPC_URL_ETHEREUM_TESTNET,
      publicRpcUrl: c.PUBLIC_RPC_URL_ETHEREUM_TESTNET,
      confirmations: c.CONFIRMATIONS_ETHEREUM_TESTNET,
      blockTimeMs: c.BLOCK_TIME_MS_ETHEREUM_TESTNET,
    },
    {
      chainId: chainIds.polygonTestnet,
      name: 'Polygon Amoy',
      rpcUrls: c.RPC_URL_POLYGON_TESTNET,
      publicRpcUrl: c.PUBLIC_RPC_URL_POLYGON_TESTNET,
      confirmations: c.CONFIRMATIONS_POLYGON_TESTNET,
      blockTimeMs: c.BLOCK_TIME_MS_POLYGON_TESTNET,
    },
  ].flatMap((chain) => (chain.rpcUrls ? [{ ...chain, rpcUrls: chain.rpcUrls }] : []));
  return { chains, chainWatch: { maxLagBlocks: c.CHAIN_WATCHER_MAX_LAG_BLOCKS } };
}
