/**
 * What the service knows of each RPC endpoint of one chain, shared by the chain's transports: the head
 * each gave, whether it is stale, until when it rests, and how far its `eth_getLogs` is proven complete.
 *
 * The freshness rule: every round of head reads (each watcher tick asks every endpoint) finds the best
 * head; an endpoint whose head is more than {@link staleBlocks} behind it is stale until a later round
 * finds it caught up. A stale endpoint is not asked for logs, nor for a block above its head, and its
 * head is not taken: the next endpoint in the list is asked instead. An endpoint answering `eth_getLogs`
 * up to a block must first prove it holds that block's logs (see endpointTransport.ts).
 */
import type { RpcErrorKind } from './rpcErrors.ts';

/** Blocks an endpoint's head may trail the best head before it is stale (heads read a moment apart differ). */
export const staleBlocks = 3n;
/** How long the best head of a round stays the yardstick for heads answered between rounds. */
const peakMs = 60_000;

/** One endpoint as its transport and the chain's other transports see it. */
export interface EndpointState {
  /** Names it in errors (never the URL). */
  label: string;
  /** The head it gave when last asked, and when. */
  head?: bigint;
  headAt?: number;
  /** Found behind the best head by the last round of head reads. */
  stale: boolean;
  /** Until when it is not asked (after a rate limit or repeated failures), and why. */
  restUntil: number;
  restKind: RpcErrorKind;
  restReason: string;
  /** Failures in a row. */
  failures: number;
  /** The newest block whose logs it proved it holds. */
  logsProvenTo?: bigint;
  /** A block whose logs it did not hold, and until when it is not asked for logs that far. */
  logsMissing?: { block: bigint; until: number };
}

/** Every endpoint of one chain, in the configured order. */
export interface ChainEndpointStates {
  endpoints: EndpointState[];
  /** The best head the last round of head reads found, and when. */
  peak?: { head: bigint; at: number };
}

/** A fresh state for endpoints labelled `labels`. */
export function createEndpointStates(labels: readonly string[]): ChainEndpointStates {
  return {
    endpoints: labels.map((label) => ({
      label,
      stale: false,
      restUntil: 0,
      restKind: 'unreachable' as const,
      restReason: '',
      failures: 0,
    })),
  };
}

/** The best head of a round that started at `since` (the endpoints that answered it), marking the stale ones. */
export function noteHeadRound(states: ChainEndpointStates, since: number): bigint | undefined {
  let best: bigint | undefined;
  for (const e of states.endpoints) {
    if ((e.headAt ?? 0) >= since && e.head !== undefined && (best === undefined || e.head > best))
      best = e.head;
  }
  if (best === undefined) return undefined;
  // A higher head seen within the last minute still counts: the endpoint that gave it may be away.
  const prior = recentPeak(states);
  if (prior === undefined || best >= prior) states.peak = { head: best, at: Date.now() };
  const yardstick = prior !== undefined && prior > best ? prior : best;
  for (const e of states.endpoints) {
    if ((e.headAt ?? 0) >= since && e.head !== undefined) e.stale = yardstick - e.head > staleBlocks;
  }
  return best;
}

/** The best head a round found within the last minute, if any. */
export function recentPeak(states: ChainEndpointStates, now = Date.now()): bigint | undefined {
  return states.peak && now - states.peak.at <= peakMs ? states.peak.head : undefined;
}

/**
 * When every endpoint rests or is stale (and at least one rests): how long until the first resting one may
 * be asked, and why they rest (a rate limit named first, since it is what an operator can act on).
 * Undefined while any fresh endpoint may be asked, or when none rests. A stale endpoint does not stand in
 * for a fresh one that rests: the call waits for the fresh one.
 */
export function earliestRest(
  states: ChainEndpointStates,
  now = Date.now(),
): { ms: number; kind: RpcErrorKind; reason: string } | undefined {
  let first: EndpointState | undefined;
  let rateLimited = false;
  for (const e of states.endpoints) {
    if (e.restUntil <= now) {
      if (e.stale) continue;
      return undefined;
    }
    if (e.restKind === 'rate_limited') rateLimited = true;
    if (!first || e.restUntil < first.restUntil) first = e;
  }
  if (!first) return undefined;
  return {
    ms: first.restUntil - now,
    kind: rateLimited ? 'rate_limited' : first.restKind,
    reason: first.restReason,
  };
}

/** Whether some endpoint was found, within its rest from logs, not to hold the logs of `block`. */
export function logsMissingUpTo(states: ChainEndpointStates, block: bigint, now = Date.now()): boolean {
  return states.endpoints.some(
    (e) => e.logsMissing && e.logsMissing.until > now && e.logsMissing.block <= block,
  );
}
