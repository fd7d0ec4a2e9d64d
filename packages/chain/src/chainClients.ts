/** One viem public client per configured chain, with the confirmation count payments need there. */
import { type Chain, createPublicClient, http, type PublicClient } from 'viem';

/** How to reach one chain. */
export interface ChainEndpoint {
  chainId: number;
  name: string;
  rpcUrl: string;
  /** Blocks, counting the one that includes the transaction, before a payment is final. */
  confirmations: number;
  /** An RPC URL safe to hand to shoppers' browsers (the private one may carry a provider key). */
  publicRpcUrl?: string | undefined;
}

/** A reachable chain. */
export interface ChainClient extends ChainEndpoint {
  client: PublicClient;
}

/** Clients by chain id. */
export type ChainClients = ReadonlyMap<number, ChainClient>;

/** Builds a client per endpoint (no network traffic until used). */
export function createChainClients(endpoints: readonly ChainEndpoint[]): ChainClients {
  return new Map(
    endpoints.map((e) => {
      const chain: Chain = {
        id: e.chainId,
        name: e.name,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [e.rpcUrl] } },
      };
      // Short polling: a checkout waits on receipts and confirmations.
      const client = createPublicClient({
        chain,
        transport: http(e.rpcUrl, { timeout: 15_000, retryCount: 2 }),
        pollingInterval: 500,
      });
      return [e.chainId, { ...e, client }];
    }),
  );
}
