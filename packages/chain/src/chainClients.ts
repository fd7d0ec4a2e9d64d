/**
 * One viem public client per configured chain, with the confirmation count payments need there. A chain
 * may list several RPC endpoints: viem's `fallback` transport asks them in the order given and moves on
 * to the next when one fails; each endpoint rests after a rate limit or repeated failures and learns the
 * `eth_getLogs` ranges it serves (see endpointTransport.ts).
 *
 * viem's ranking (`rank`) is not used: it pings every endpoint on a timer that nothing stops (a process
 * that starts and stops services keeps pinging) and costs calls while idle; the configured order says
 * which provider is preferred, and resting skips a failing one.
 */
import { redactUrl } from '@checkout/core';
import { type Chain, createPublicClient, fallback, type PublicClient } from 'viem';
import { endpointTransport } from './endpointTransport.ts';
import type { RpcErrorKind } from './rpcErrors.ts';

/** How to reach one chain. */
export interface ChainEndpoint {
  chainId: number;
  name: string;
  /** JSON-RPC endpoints, preferred first. */
  rpcUrls: readonly string[];
  /** Blocks, counting the one that includes the transaction, before a payment is final. */
  confirmations: number;
  /** About how often the chain makes a block: how often its watcher asks for a new one while a shopper pays from a phone. */
  blockTimeMs?: number | undefined;
  /** An RPC URL safe to hand to shoppers' browsers (the private one may carry a provider key). */
  publicRpcUrl?: string | undefined;
}

/** A reachable chain. */
export interface ChainClient extends ChainEndpoint {
  client: PublicClient;
}

/** Clients by chain id. */
export type ChainClients = ReadonlyMap<number, ChainClient>;

/** Told of every JSON-RPC call a chain client makes (a batch counts each call in it), and of every failure. */
export interface RpcObserver {
  onRequest?: (request: { chainId: number; chainName: string; method: string }) => void;
  /** `endpoint` is the endpoint's position in the chain's list, from 1. */
  onError?: (error: { chainId: number; method: string; kind: RpcErrorKind; endpoint: number }) => void;
}

/** One request's deadline at one endpoint. */
const requestTimeoutMs = 15_000;

/**
 * Builds a client per chain (no network traffic until used). The observer hears of every call and
 * failure, so an operator can see what each chain costs and how its providers behave.
 */
export function createChainClients(
  endpoints: readonly ChainEndpoint[],
  observer: RpcObserver = {},
): ChainClients {
  return new Map(
    endpoints.map((e) => {
      const chain: Chain = {
        id: e.chainId,
        name: e.name,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        // Only ever shown: the transports hold the URLs.
        rpcUrls: { default: { http: e.rpcUrls.map((url) => redactUrl(url)) } },
      };
      const transports = e.rpcUrls.map((url, i) =>
        endpointTransport(url, {
          label: `${e.name} RPC endpoint ${i + 1}`,
          timeoutMs: requestTimeoutMs,
          observer: {
            ...(observer.onRequest
              ? {
                  onRequest: ({ method }) =>
                    observer.onRequest?.({ chainId: e.chainId, chainName: e.name, method }),
                }
              : {}),
            onError: ({ method, kind }) =>
              observer.onError?.({ chainId: e.chainId, method, kind, endpoint: i + 1 }),
          },
        }),
      );
      // Short polling: a checkout waits on receipts and confirmations.
      const client = createPublicClient({
        chain,
        transport: fallback(transports, { retryCount: 2, retryDelay: 150 }),
        pollingInterval: 500,
      });
      return [e.chainId, { ...e, client }];
    }),
  );
}
