/**
 * The transport of one chain over its endpoints: viem's `fallback` asks them in the configured order and
 * moves on when one fails, is resting or is stale (see endpointTransport.ts). When every endpoint rests
 * (rate limited, or failing) or is stale, a call waits for the first rest to end and is asked again, for at most
 * {@link maxWaitMs} in all: a provider answering some calls 429 slows the service down, it does not stop
 * payments. Given up, the call fails with the reason they rest (a rate limit named first).
 */
import { createTransport, type EIP1193RequestFn, fallback, hexToBigInt, type Transport } from 'viem';
import { type ChainEndpointStates, earliestRest, logsMissingUpTo } from './endpointStates.ts';
import { classifyRpcError, EndpointRestingError, EndpointStaleError } from './rpcErrors.ts';

/** The longest one call waits for resting endpoints, in all. */
const maxWaitMs = 12_000;

/**
 * Failures worth waiting out: the endpoints rest, or failed in a way that makes them rest, or the last one
 * asked is stale while a fresh one rests (see `earliestRest`).
 */
const waitable = new Set(['rate_limited', 'unreachable', 'timeout', 'server', 'stale']);

/** A transport over `endpoints` (their states in `states`, in the same order), named `name` in errors. */
export function chainTransport(endpoints: Transport[], states: ChainEndpointStates, name: string): Transport {
  return (config) => {
    const inner = fallback(endpoints, { retryCount: 2, retryDelay: 150 })(config);
    const request = async (args: { method: string; params?: unknown }): Promise<unknown> => {
      const deadline = Date.now() + maxWaitMs;
      for (;;) {
        try {
          return await inner.request(args as never);
        } catch (error) {
          const rest = earliestRest(states);
          if (!rest || !waitable.has(classifyRpcError(error).kind)) throw logsNotHeld(args, error);
          if (Date.now() + rest.ms > deadline) {
            throw new EndpointRestingError({
              endpoint: `every ${name} RPC endpoint`,
              kind: rest.kind,
              retryAfterMs: rest.ms,
              reason: rest.reason,
            });
          }
          await new Promise((r) => setTimeout(r, rest.ms + 5));
        }
      }
    };
    /** An `eth_getLogs` that failed while an endpoint did not hold its last block: said so, for the caller to read less far. */
    const logsNotHeld = (args: { method: string; params?: unknown }, error: unknown): unknown => {
      if (args.method !== 'eth_getLogs' || error instanceof EndpointStaleError) return error;
      const filter = (Array.isArray(args.params) ? args.params[0] : undefined) as
        | { toBlock?: unknown }
        | undefined;
      if (typeof filter?.toBlock !== 'string' || !filter.toBlock.startsWith('0x')) return error;
      const to = hexToBigInt(filter.toBlock as `0x${string}`);
      if (!logsMissingUpTo(states, to)) return error;
      return new EndpointStaleError({
        endpoint: `every fresh ${name} RPC endpoint`,
        block: to,
        logs: true,
        reason: String((error as { shortMessage?: unknown }).shortMessage ?? error),
      });
    };
    return createTransport(
      {
        key: 'chain',
        name: `${name} RPC endpoints`,
        type: 'chain',
        retryCount: 0,
        request: request as EIP1193RequestFn,
      },
      inner.value,
    );
  };
}
