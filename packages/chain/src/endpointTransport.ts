/**
 * One RPC endpoint as the service uses it, under the chain's transport (chainTransport.ts: viem's
 * `fallback`, which moves to the next endpoint when this one fails, and waits when every endpoint rests):
 *
 * - `eth_getLogs` up to a block is answered only once the endpoint proved it holds that block's logs: it
 *   gives the block's hash, and `eth_getLogs` by that hash (which a node that has not reached the block
 *   refuses) answers. A provider may serve its logs from a node behind the one that gives its head, which
 *   leaves the newest logs out without an error; refused, the endpoint is not asked for logs that far for a
 *   while and the next endpoint is asked (`EndpointStaleError`);
 * - a stale endpoint (behind the best head, see endpointStates.ts) is not asked for logs nor for a block
 *   above its head, and a head it gives that far behind is not taken;
 * - `eth_getLogs` is asked in parts the endpoint serves (see logRanges.ts), learnt per endpoint;
 * - a rate limit rests the endpoint until its `Retry-After` (or a second), and repeated failures of the
 *   endpoint (unreachable, timing out, 5xx) rest it for a while that doubles, up to 10 s: calls then go to
 *   the next endpoint at once instead of waiting on this one;
 * - every call made is reported (`onRequest`) and every failure with its kind (`onError`);
 * - an error never carries the URL's secrets (a provider's key in the path or query): they are redacted
 *   from the error's message, details, URL and stack before it leaves, so no log or workflow history
 *   receives them.
 */
import { redactUrl, redactUrlsIn } from '@checkout/core';
import { createTransport, type EIP1193RequestFn, type Hex, hexToBigInt, http, type Transport } from 'viem';
import { createEndpointStates, type EndpointState, staleBlocks } from './endpointStates.ts';
import { getLogsInParts, type LogRangeMemory } from './logRanges.ts';
import {
  classifyRpcError,
  EndpointRestingError,
  EndpointStaleError,
  type RpcErrorKind,
} from './rpcErrors.ts';

/** Told of calls to one endpoint. */
export interface EndpointObserver {
  /** A JSON-RPC call sent (a batch counts each call in it). */
  onRequest?: (call: { method: string }) => void;
  /** A call that failed, and how. */
  onError?: (call: { method: string; kind: RpcErrorKind }) => void;
}

/** Failures in a row before the endpoint rests (one failure is retried at once: it may be a blip). */
const failuresBeforeRest = 2;
const maxRestMs = 10_000;
/** How long an endpoint that did not hold a block's logs is not asked for logs that far. */
const logsMissingMs = 2_000;

const isBlockNumber = (value: unknown): value is Hex =>
  typeof value === 'string' && /^0x[0-9a-f]+$/i.test(value);

/**
 * A transport to `url` for the chain's transport; `label` names it in errors (never the URL), `state` is
 * its entry in the chain's endpoint states (a state of its own when left out).
 */
export function endpointTransport(
  url: string,
  options: {
    label: string;
    timeoutMs: number;
    observer?: EndpointObserver;
    state?: EndpointState;
    peak?: () => bigint | undefined;
  },
): Transport {
  const memory: LogRangeMemory = { answered: 0 };
  const state = options.state ?? createEndpointStates([options.label]).endpoints[0]!;
  const peak = options.peak ?? (() => undefined);
  let inner: ReturnType<Transport> | undefined;
  const shown = redactUrl(url);
  const { observer } = options;

  const rest = (kind: RpcErrorKind, ms: number, reason: string) => {
    state.restUntil = Date.now() + ms;
    state.restKind = kind;
    state.restReason = reason;
  };
  const resting = (retryAfterMs: number) =>
    new EndpointRestingError({
      endpoint: options.label,
      kind: state.restKind,
      retryAfterMs,
      reason: state.restReason,
    });
  const stale = (block: bigint, logs: boolean, reason: string) =>
    new EndpointStaleError({ endpoint: options.label, block, logs, reason });

  return (config) => {
    inner ??= http(url, {
      timeout: options.timeoutMs,
      retryCount: 0,
      ...(observer?.onRequest
        ? { onFetchRequest: (_r: Request, init: RequestInit) => countCalls(init, observer) }
        : {}),
    })({ ...config, retryCount: 0 });
    const send = async (method: string, params: unknown): Promise<unknown> => {
      const left = state.restUntil - Date.now();
      if (left > 0) throw resting(left);
      try {
        const result = await inner!.request({ method, params } as never);
        state.failures = 0;
        return result;
      } catch (error) {
        const fault = classifyRpcError(error);
        observer?.onError?.({ method, kind: fault.kind });
        const reason = redactError(error, shown);
        if (fault.kind === 'rate_limited') {
          state.failures++;
          rest(
            'rate_limited',
            fault.retryAfterMs ?? Math.min(maxRestMs, 1000 * 2 ** (state.failures - 1)),
            reason,
          );
          // Not the provider's error itself: its Retry-After would make viem wait inside the call.
          throw resting(state.restUntil - Date.now());
        }
        if (fault.kind === 'unreachable' || fault.kind === 'timeout' || fault.kind === 'server') {
          if (++state.failures >= failuresBeforeRest) {
            rest(fault.kind, Math.min(maxRestMs, 500 * 2 ** (state.failures - failuresBeforeRest)), reason);
          }
        }
        throw error;
      }
    };

    /** The endpoint's head; not taken when it is stale (more than a few blocks behind the best head). */
    const blockNumber = async (): Promise<unknown> => {
      const answer = await send('eth_blockNumber', []);
      if (!isBlockNumber(answer)) return answer;
      const head = hexToBigInt(answer);
      state.head = head;
      state.headAt = Date.now();
      const best = peak();
      if (best !== undefined && best - head > staleBlocks) {
        state.stale = true;
        throw stale(head, false, `its head ${head} is behind ${best}`);
      }
      return answer;
    };

    /** Proves the endpoint holds the logs of block `to`: its hash, then `eth_getLogs` by that hash. */
    const proveLogs = async (to: bigint, filter: Record<string, unknown>): Promise<void> => {
      if (state.logsProvenTo !== undefined && to <= state.logsProvenTo) return;
      const missing = (reason: string) => {
        state.logsMissing = { block: to, until: Date.now() + logsMissingMs };
        return stale(to, true, reason);
      };
      const notThere = (reason: string) => (error: unknown) => {
        throw classifyRpcError(error).kind === 'missing_block' ? missing(reason) : error;
      };
      const block = (await send('eth_getBlockByNumber', [`0x${to.toString(16)}`, false]).catch(
        notThere('it does not have the block'),
      )) as { hash?: unknown } | null;
      if (typeof block?.hash !== 'string') throw missing('it does not have the block');
      await send('eth_getLogs', [
        {
          blockHash: block.hash,
          ...(filter.address === undefined ? {} : { address: filter.address }),
          ...(filter.topics === undefined ? {} : { topics: filter.topics }),
        },
      ]).catch(notThere('its logs do not reach the block'));
      state.logsProvenTo = to;
      delete state.logsMissing;
    };

    return createTransport({
      key: 'endpoint',
      name: options.label,
      type: 'endpoint',
      retryCount: 0,
      timeout: options.timeoutMs,
      request: (async ({ method, params }: { method: string; params?: unknown }) => {
        if (method === 'eth_blockNumber') return blockNumber();
        if (
          method === 'eth_getBlockByNumber' &&
          state.stale &&
          Array.isArray(params) &&
          isBlockNumber(params[0]) &&
          state.head !== undefined &&
          hexToBigInt(params[0]) > state.head
        ) {
          throw stale(hexToBigInt(params[0]), false, `its head is ${state.head}`);
        }
        if (method !== 'eth_getLogs' || !Array.isArray(params) || typeof params[0] !== 'object') {
          return send(method, params);
        }
        const filter = params[0] as Record<string, unknown>;
        if (filter.blockHash === undefined && isBlockNumber(filter.toBlock)) {
          const to = hexToBigInt(filter.toBlock);
          if (state.stale) throw stale(to, true, `its head ${state.head} is behind the best head`);
          const missing = state.logsMissing;
          if (missing && missing.until > Date.now() && to >= missing.block) {
            throw stale(to, true, `it did not hold the logs of block ${missing.block}`);
          }
          await proveLogs(to, filter);
        }
        return getLogsInParts(
          filter,
          memory,
          async (part) => (await send('eth_getLogs', [part])) as unknown[],
        );
      }) as EIP1193RequestFn,
    });
  };
}

/** Counts the calls of one HTTP request (a JSON-RPC batch holds several). */
function countCalls(init: RequestInit, observer: EndpointObserver): void {
  let calls: { method?: unknown }[];
  try {
    const body = JSON.parse(String(init.body)) as { method?: unknown } | { method?: unknown }[];
    calls = Array.isArray(body) ? body : [body];
  } catch {
    calls = [{}];
  }
  for (const call of calls)
    observer.onRequest?.({ method: typeof call.method === 'string' ? call.method : 'unknown' });
}

/**
 * Removes the URL's secrets from `error` and its causes (viem puts the URL in `url`, the message, the
 * details, `metaMessages` and the stack); returns its one-line summary.
 */
function redactError(error: unknown, shownUrl: string): string {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 8; depth++) {
    const e = current as Record<string, unknown>;
    for (const field of ['message', 'shortMessage', 'details', 'stack']) {
      if (typeof e[field] === 'string') e[field] = redactUrlsIn(e[field]);
    }
    if (typeof e.url === 'string') e.url = shownUrl;
    if (Array.isArray(e.metaMessages)) {
      e.metaMessages = e.metaMessages.map((m) => (typeof m === 'string' ? redactUrlsIn(m) : m));
    }
    current = e.cause;
  }
  const top = error as { shortMessage?: unknown; details?: unknown; message?: unknown };
  const head = typeof top.shortMessage === 'string' ? top.shortMessage : String(top.message ?? error);
  return typeof top.details === 'string' && top.details !== '' ? `${head} ${top.details}` : head;
}
