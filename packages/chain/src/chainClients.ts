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

/** Told of every JSON-RPC request a chain client makes (a batch counts each call in it). */
export type RpcRequestObserver = (request: { chainId: number; chainName: string; method: string }) => void;

/**
 * Builds a client per endpoint (no network traffic until used). `onRequest` hears of every JSON-RPC call,
 * so an operator can see what each chain costs.
 */
export function createChainClients(
  endpoints: readonly ChainEndpoint[],
  onRequest?: RpcRequestObserver,
): ChainClients {
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
        transport: http(e.rpcUrl, {
          timeout: 15_000,
          retryCount: 2,
          ...(onRequest
            ? {
                onFetchRequest: (_request: Request, init: RequestInit) => {
                  let calls: { method?: unknown }[] = [];
                  try {
                    const body = JSON.parse(String(init.body)) as
                      | { method?: unknown }
                      | { method?: unknown }[];
                    calls = Array.isArray(body) ? body : [body];
                  } catch {
                    calls = [{}];
                  }
                  for (const call of calls) {
                    const method = typeof call.method === 'string' ? call.method : 'unknown';
                    onRequest({ chainId: e.chainId, chainName: e.name, method });
                  }
                },
              }
            : {}),
        }),
        pollingInterval: 500,
      });
      return [e.chainId, { ...e, client }];
    }),
  );
}
