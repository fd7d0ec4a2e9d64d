/**
 * One viem public client per configured chain, with the confirmation count payments need there. A chain
 * may list several RPC endpoints: its transport asks them in the order given and moves on to the next
 * when one fails, rests or is stale, and waits when every one rests (chainTransport.ts); each endpoint
 * rests after a rate limit or repeated failures, proves it holds the logs it answers, and learns the
 * `eth_getLogs` ranges it serves (see endpointTransport.ts).
 *
 * viem's ranking (`rank`) is not used: it pings every endpoint on a timer that nothing stops (a process
 * that starts and stops services keeps pinging) and costs calls while idle. Freshness is ranked instead
 * by the chain's watcher, which asks every endpoint for its head once a tick (`readHeads`): an endpoint
 * behind the best head is skipped (endpointStates.ts); otherwise the configured order says which provider
 * is preferred, and resting skips a failing one.
 */
import { redactUrl } from '@checkout/core';
import { type Address, type Chain, createPublicClient, type PublicClient } from 'viem';
import { getBlockNumber } from 'viem/actions';
import { chainTransport } from './chainTransport.ts';
import {
  type ChainEndpointStates,
  createEndpointStates,
  noteHeadRound,
  recentPeak,
} from './endpointStates.ts';
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
  /**
   * The deposit forwarders' factory (`DepositForwarderFactory`), when a session paid from another device
   * gets a deposit address of its own (`PHONE_PAYMENT_MODE_<CHAIN>` `deposit_address`); absent when it
   * gets an exact amount instead.
   */
  depositFactory?: Address | undefined;
  /** The highest gas price (wei) a sweep of deposit addresses is sent at; above it the sweep waits. */
  sweepMaxGasPriceWei?: bigint | undefined;
}

/** A reachable chain. */
export interface ChainClient extends ChainEndpoint {
  client: PublicClient;
  /** What is known of each endpoint (heads, rests, logs proven); absent for a client built elsewhere. */
  endpoints?: ChainEndpointStates;
  /**
   * Asks every endpoint for its head at once and returns the best (marking the endpoints behind it stale);
   * when none answers, the client's own call (which waits out rests) answers or throws.
   */
  readHeads?: () => Promise<bigint>;
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
      const states = createEndpointStates(e.rpcUrls.map((_, i) => `${e.name} RPC endpoint ${i + 1}`));
      const transports = e.rpcUrls.map((url, i) =>
        endpointTransport(url, {
          label: states.endpoints[i]!.label,
          state: states.endpoints[i]!,
          peak: () => recentPeak(states),
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
        transport: chainTransport(transports, states, e.name),
        pollingInterval: 500,
      });
      const each = transports.map((t) => t({ chain, retryCount: 0 }));
      const readHeads = async (): Promise<bigint> => {
        const since = Date.now();
        // A stale endpoint's head is noted before its answer is refused: the round still ranks it.
        await Promise.allSettled(each.map((t) => t.request({ method: 'eth_blockNumber' })));
        const best = noteHeadRound(states, since);
        return best ?? getBlockNumber(client, { cacheTime: 0 });
      };
      return [e.chainId, { ...e, client, endpoints: states, readHeads }];
    }),
  );
}
