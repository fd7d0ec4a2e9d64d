/** The chains the service reads: each one's RPC endpoint, the one shown to browsers, its confirmations. */
import { z } from 'zod';
import { optional } from './shared.ts';

export const chainsEnv = {
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
  // The test networks of Ethereum (Sepolia) and Polygon (Amoy): run only when their RPC URL is set.
  RPC_URL_ETHEREUM_TESTNET: optional(z.url()),
  RPC_URL_POLYGON_TESTNET: optional(z.url()),
  PUBLIC_RPC_URL_ETHEREUM_TESTNET: optional(z.url()),
  PUBLIC_RPC_URL_POLYGON_TESTNET: optional(z.url()),
  CONFIRMATIONS_ETHEREUM_TESTNET: z.coerce.number().int().min(1).max(1000).default(1),
  CONFIRMATIONS_POLYGON_TESTNET: z.coerce.number().int().min(1).max(1000).default(1),
};
type ChainsEnv = z.infer<z.ZodObject<typeof chainsEnv>>;

/** A chain the service reads. */
export interface ChainConfig {
  chainId: number;
  name: string;
  rpcUrl: string;
  confirmations: number;
  publicRpcUrl?: string | undefined;
}

/** RPC endpoint and confirmation count per chain id; a chain without an RPC URL takes no payments. */
export function chainsConfig(
  c: ChainsEnv,
  chainIds: { bscTestnet: number; ethereumTestnet: number; polygonTestnet: number },
): ChainConfig[] {
  return [
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
      chainId: chainIds.bscTestnet,
      name: 'BNB Smart Chain Testnet',
      rpcUrl: c.RPC_URL_BINANCE_SMART_CHAIN_TESTNET,
      publicRpcUrl: c.PUBLIC_RPC_URL_BINANCE_SMART_CHAIN_TESTNET,
      confirmations: c.CONFIRMATIONS_BINANCE_SMART_CHAIN_TESTNET,
    },
    {
      chainId: chainIds.ethereumTestnet,
      name: 'Ethereum Sepolia',
      rpcUrl: c.RPC_URL_ETHEREUM_TESTNET,
      publicRpcUrl: c.PUBLIC_RPC_URL_ETHEREUM_TESTNET,
      confirmations: c.CONFIRMATIONS_ETHEREUM_TESTNET,
    },
    {
      chainId: chainIds.polygonTestnet,
      name: 'Polygon Amoy',
      rpcUrl: c.RPC_URL_POLYGON_TESTNET,
      publicRpcUrl: c.PUBLIC_RPC_URL_POLYGON_TESTNET,
      confirmations: c.CONFIRMATIONS_POLYGON_TESTNET,
    },
  ].flatMap((chain) => (chain.rpcUrl ? [{ ...chain, rpcUrl: chain.rpcUrl }] : []));
}
