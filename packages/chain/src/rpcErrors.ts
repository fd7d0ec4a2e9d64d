/**
 * What went wrong with a JSON-RPC call, told from the error a provider answered: a rate limit (and when to
 * come back), an `eth_getLogs` range or result limit (and what range works), a timeout, an endpoint out of
 * reach or failing, or a refusal of the call itself. The providers' own wording is recognised (Alchemy,
 * Infura, QuickNode, Ankr, BlockPI, publicnode, Chainstack, Cloudflare, the BNB Smart Chain and Polygon
 * public endpoints, geth/erigon/reth/bor nodes), since most of them answer with generic codes.
 */
import { BaseError, HttpRequestError, RpcRequestError, TimeoutError } from 'viem';

/** The kind of an RPC failure, as counted in the metrics. */
export type RpcErrorKind =
  | 'rate_limited'
  | 'log_range'
  | 'log_results'
  | 'timeout'
  | 'unreachable'
  | 'server'
  | 'missing_block'
  | 'stale'
  | 'rejected';

/** A failure told apart. */
export interface RpcFault {
  kind: RpcErrorKind;
  /** A rate limit's `Retry-After`, in milliseconds. */
  retryAfterMs?: number;
  /** The widest `eth_getLogs` block range the endpoint says it serves (a stated limit). */
  maxBlocks?: bigint;
  /** A block range the endpoint suggested for this request (depends on the results, so not a limit). */
  suggestedBlocks?: bigint;
}

const number = (text: string) => {
  const k = /k$/i.test(text);
  const digits = BigInt(text.replace(/[kK,._]/g, ''));
  return k ? digits * 1000n : digits;
};

/** Range limits stated with their size: the size is the widest range served. */
const statedRangeLimits: RegExp[] = [
  /limited to an? ([\d,.]+k?)(?: block)? range/i, // QuickNode "eth_getLogs is limited to a 10,000 range", BlockPI
  /limited to ([\d,.]+) blocks?/i,
  /up to an? ([\d,.]+k?) block range/i, // Alchemy "You can make eth_getLogs requests with up to a 2K block range"
  /exceed(?:s|ed)? (?:the )?max(?:imum)? block range:? ?([\d,.]+)/i, // BSC and publicnode, reth "query exceeds max block range 5000"
  /maximum block range:? ([\d,.]+)/i,
  /block range is too wide \(maximum ([\d,.]+)\)/i, // Moonbeam/Frontier
  /range \d+ exceeds limit of ([\d,.]+)/i, // Infura
  /range \d+ is bigger than range limit ([\d,.]+)/i,
  /block range too large, range: \d+, max: ([\d,.]+)/i, // Polygon (bor)
  /max(?:imum)? (?:block )?range(?: limit)?(?: for eth_getLogs)?:? ([\d,.]+)/i, // Cloudflare, cdk-erigon
  /max block range = ([\d,.]+)/i,
  /maximum allowed number of requested blocks is ([\d,.]+)/i, // thirdweb
  /please limit the query to at most ([\d,.]+) blocks/i, // Coinbase
  /exceeds the range allowed for your plan \(\d+ > ([\d,.]+)\)/i,
  /maximum is set to ([\d,.]+)/i, // Avalanche "requested too many blocks from … maximum is set to 2048"
  /ranges over ([\d,.]+) blocks are not supported/i, // dRPC free tier
  /maximum \[from, to\] blocks distance: ([\d,.]+)/i, // Ankr
];

/** A suggested range `[0x…, 0x…]` (Alchemy's "this block range should work", Infura's "Try with this block range"). */
const suggestedRange = /(?:should work|block range):? \[(0x[0-9a-f]+),\s*(0x[0-9a-f]+)\]/i;

/** Range limits without a size: the range is halved until it is served. */
const unstatedRangeLimits =
  /block range is too wide|block range (?:is )?too (?:large|high|big)|block range is bigger than|block range limit exceeded|block range exceeds|exceed(?:s|ed)? (?:the )?(?:max(?:imum)? )?(?:block )?range|too many blocks|range is too large/i;

/** Result or response size limits: the range is halved (or the suggestion taken). */
const resultLimits =
  /query returned more than [\d,]+ results|log response size exceeded|query exceeds max results|response size (?:should not|exceed)|backend response too large|logs matched by query exceeds|too many (?:logs|results)|result (?:set )?(?:is )?too large|response (?:is )?too (?:big|large)/i;

const rateLimits =
  /rate limit|too many requests|request rate exceeded|requests? per second|capacity exceeded|compute units|exceeded .*quota|daily request count|request limit reached|throughput/i;

const missingBlock =
  /unknown block|block not found|header not found|not found block|cannot find block|block .*not (?:yet )?available|missing trie node|requested block .*(?:not|beyond)|after last accepted block|block range extends beyond current head/i;

/** Every message, detail and code along the error and its causes. */
function describe(error: unknown): { text: string; codes: number[]; status: number | undefined } {
  const texts: string[] = [];
  const codes: number[] = [];
  let status: number | undefined;
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth++) {
    const e = current as { message?: unknown; details?: unknown; code?: unknown; status?: unknown };
    if (typeof e.details === 'string') texts.push(e.details);
    if (typeof e.message === 'string') texts.push(e.message);
    if (typeof e.code === 'number') codes.push(e.code);
    if (status === undefined && typeof e.status === 'number') status = e.status;
    current = (current as { cause?: unknown }).cause;
  }
  return { text: texts.join('\n'), codes, status };
}

/** `Retry-After` in milliseconds (seconds or an HTTP date), or undefined. */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** How a failed call failed. */
export function classifyRpcError(error: unknown): RpcFault {
  if (error instanceof EndpointRestingError) {
    return { kind: error.kind, retryAfterMs: error.retryAfterMs };
  }
  if (error instanceof EndpointStaleError) return { kind: 'stale' };
  const { text, codes, status } = describe(error);
  const walk = (match: (e: unknown) => boolean) => (error instanceof BaseError ? error.walk(match) : null);
  // A JSON-RPC error answered with an HTTP error status keeps the response's headers too.
  const answered = walk(
    (e) => (e instanceof HttpRequestError || e instanceof RpcRequestError) && e.headers !== undefined,
  ) as HttpRequestError | RpcRequestError | null;
  if (status === 429 || codes.includes(429) || codes.includes(-32007) || rateLimits.test(text)) {
    const after = retryAfterMs(answered?.headers?.get('retry-after'));
    return { kind: 'rate_limited', ...(after !== undefined ? { retryAfterMs: after } : {}) };
  }
  const suggested = suggestedRange.exec(text);
  const suggestion = suggested ? { suggestedBlocks: BigInt(suggested[2]!) - BigInt(suggested[1]!) + 1n } : {};
  for (const pattern of statedRangeLimits) {
    const match = pattern.exec(text);
    if (match?.[1] && /\d/.test(match[1])) {
      return { kind: 'log_range', maxBlocks: number(match[1]), ...suggestion };
    }
  }
  if (resultLimits.test(text) || status === 413) return { kind: 'log_results', ...suggestion };
  if (unstatedRangeLimits.test(text) || suggested) return { kind: 'log_range', ...suggestion };
  if (missingBlock.test(text)) return { kind: 'missing_block' };
  const timedOut = walk((e) => e instanceof TimeoutError || (e as { name?: string }).name === 'TimeoutError');
  if (timedOut || status === 408 || status === 504) return { kind: 'timeout' };
  if (status !== undefined && status >= 500) return { kind: 'server' };
  if (walk((e) => e instanceof HttpRequestError) && status === undefined) return { kind: 'unreachable' };
  if (codes.includes(-32603)) return { kind: 'server' };
  // Request limits without words of their own (BNB Smart Chain's public nodes: "limit exceeded").
  if (codes.includes(-32005)) return { kind: 'rate_limited' };
  return { kind: 'rejected' };
}

/**
 * A call not made: the endpoint rests after a rate limit (until its `Retry-After`) or after failing
 * several times in a row, so a fallback endpoint is asked at once and the resting one is not hammered.
 */
export class EndpointRestingError extends BaseError {
  readonly kind: RpcErrorKind;
  readonly retryAfterMs: number;
  constructor(options: { endpoint: string; kind: RpcErrorKind; retryAfterMs: number; reason: string }) {
    super(
      `${options.endpoint} rests for ${Math.ceil(options.retryAfterMs / 100) / 10} s after ${options.kind}.`,
      { details: options.reason, name: 'EndpointRestingError' },
    );
    this.kind = options.kind;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/**
 * A call not made, or an answer not trusted: the endpoint is behind the freshest one (its head, or the
 * node that answers its `eth_getLogs`, has not reached `block`), so a fresher endpoint is asked instead.
 */
export class EndpointStaleError extends BaseError {
  /** The block the endpoint does not hold (or, for a head, the head it gave). */
  readonly block: bigint;
  /** Whether it is `eth_getLogs` that the endpoint cannot serve up to `block`. */
  readonly logs: boolean;
  constructor(options: { endpoint: string; block: bigint; logs: boolean; reason: string }) {
    super(
      options.logs
        ? `${options.endpoint} does not hold the logs of block ${options.block} yet.`
        : `${options.endpoint} is behind the freshest endpoint (block ${options.block}).`,
      { details: options.reason, name: 'EndpointStaleError' },
    );
    this.block = options.block;
    this.logs = options.logs;
  }
}
