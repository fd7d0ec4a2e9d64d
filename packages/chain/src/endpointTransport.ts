/**
 * One RPC endpoint as the service uses it, under viem's `fallback` transport (which moves to the next
 * endpoint when this one fails):
 *
 * - `eth_getLogs` is asked in parts the endpoint serves (see logRanges.ts), learnt per endpoint;
 * - a rate limit rests the endpoint until its `Retry-After` (or a second), and repeated failures of the
 *   endpoint (unreachable, timing out, 5xx) rest it for a while that doubles, up to 10 s: calls then go to
 *   the next endpoint at once instead of waiting on this one. viem's own retry would wait out a long
 *   `Retry-After` inside the call, holding a watcher's tick; resting answers at once and asks nobody early;
 * - every call made is reported (`onRequest`) and every failure with its kind (`onError`);
 * - an error never carries the URL's secrets (a provider's key in the path or query): they are redacted
 *   from the error's message, details, URL and stack before it leaves, so no log or workflow history
 *   receives them.
 */
import { redactUrl, redactUrlsIn } from '@checkout/core';
import { createTransport, type EIP1193RequestFn, http, type Transport } from 'viem';
import { getLogsInParts, type LogRangeMemory } from './logRanges.ts';
import { classifyRpcError, EndpointRestingError, type RpcErrorKind } from './rpcErrors.ts';

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

/** A transport to `url` for use in `fallback([...])`; `label` names it in errors (never the URL). */
export function endpointTransport(
  url: string,
  options: { label: string; timeoutMs: number; observer?: EndpointObserver },
): Transport {
  const memory: LogRangeMemory = { answered: 0 };
  let restUntil = 0;
  let restKind: RpcErrorKind = 'unreachable';
  let restReason = '';
  let failures = 0;
  let inner: ReturnType<Transport> | undefined;
  const shown = redactUrl(url);
  const { observer } = options;

  const rest = (kind: RpcErrorKind, ms: number, reason: string) => {
    restUntil = Date.now() + ms;
    restKind = kind;
    restReason = reason;
  };
  const resting = (retryAfterMs: number) =>
    new EndpointRestingError({ endpoint: options.label, kind: restKind, retryAfterMs, reason: restReason });

  return (config) => {
    inner ??= http(url, {
      timeout: options.timeoutMs,
      retryCount: 0,
      ...(observer?.onRequest
        ? { onFetchRequest: (_r: Request, init: RequestInit) => countCalls(init, observer) }
        : {}),
    })({ ...config, retryCount: 0 });
    const send = async (method: string, params: unknown): Promise<unknown> => {
      const left = restUntil - Date.now();
      if (left > 0) throw resting(left);
      try {
        const result = await inner!.request({ method, params } as never);
        failures = 0;
        return result;
      } catch (error) {
        const fault = classifyRpcError(error);
        observer?.onError?.({ method, kind: fault.kind });
        const reason = redactError(error, shown);
        if (fault.kind === 'rate_limited') {
          failures++;
          rest('rate_limited', fault.retryAfterMs ?? Math.min(maxRestMs, 1000 * 2 ** (failures - 1)), reason);
          // Not the provider's error itself: its Retry-After would make viem wait inside the call.
          throw resting(restUntil - Date.now());
        }
        if (fault.kind === 'unreachable' || fault.kind === 'timeout' || fault.kind === 'server') {
          if (++failures >= failuresBeforeRest) {
            rest(fault.kind, Math.min(maxRestMs, 500 * 2 ** (failures - failuresBeforeRest)), reason);
          }
        }
        throw error;
      }
    };
    return createTransport({
      key: 'endpoint',
      name: options.label,
      type: 'endpoint',
      retryCount: 0,
      timeout: options.timeoutMs,
      request: (async ({ method, params }: { method: string; params?: unknown }) => {
        if (method !== 'eth_getLogs' || !Array.isArray(params) || typeof params[0] !== 'object') {
          return send(method, params);
        }
        return getLogsInParts(
          params[0] as Record<string, unknown>,
          memory,
          async (filter) => (await send('eth_getLogs', [filter])) as unknown[],
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
