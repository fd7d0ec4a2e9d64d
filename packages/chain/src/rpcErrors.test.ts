import {
  HttpRequestError,
  InternalRpcError,
  InvalidInputRpcError,
  InvalidParamsRpcError,
  LimitExceededRpcError,
  RpcRequestError,
  TimeoutError,
  UnknownRpcError,
} from 'viem';
import { describe, expect, it } from 'vitest';
import { classifyRpcError, EndpointRestingError, retryAfterMs } from './rpcErrors.ts';

const url = 'http://127.0.0.1:1/v3/key';
/** A JSON-RPC error as viem's http transport throws it (answered with HTTP 200). */
const rpc = (code: number, message: string) => {
  const cause = new RpcRequestError({ url, body: {}, error: { code, message } });
  if (code === -32005) return new LimitExceededRpcError(cause);
  if (code === -32602) return new InvalidParamsRpcError(cause);
  if (code === -32000) return new InvalidInputRpcError(cause);
  if (code === -32603) return new InternalRpcError(cause);
  return new UnknownRpcError(cause);
};
/** An error answered with an HTTP status, its JSON-RPC error in the details. */
const httpError = (status: number, details = '', headers?: Record<string, string>) =>
  new HttpRequestError({
    url,
    status,
    details,
    body: {},
    ...(headers ? { headers: new Headers(headers) } : {}),
  });

describe('classifyRpcError', () => {
  it("reads each provider's stated eth_getLogs range limit", () => {
    const cases: Array<[Error, bigint]> = [
      [rpc(-32614, 'eth_getLogs is limited to a 10,000 range'), 10_000n], // QuickNode
      [httpError(413, '{"code":-32614,"message":"eth_getLogs is limited to a 10,000 range"}'), 10_000n],
      [rpc(-32000, 'exceed maximum block range: 5000'), 5_000n], // BSC public nodes
      [rpc(-32000, 'exceed maximum block range: 50000'), 50_000n], // publicnode
      [rpc(-32602, 'range 1000000 exceeds limit of 10000'), 10_000n], // Infura
      [rpc(-32602, 'query exceeds max block range 5000'), 5_000n], // reth, LlamaRPC
      [rpc(-32000, 'block range is too wide (maximum 1024)'), 1_024n], // Frontier
      [rpc(-32000, 'eth_getLogs block range too large, range: 99991, max: 3500'), 3_500n], // Polygon
      [rpc(-32602, 'eth_getLogs is limited to 1024 block range'), 1_024n], // BlockPI
      [rpc(-32600, 'You can make eth_getLogs requests with up to a 500 block range.'), 500n], // Alchemy
      [
        rpc(
          -32600,
          'Under the Free tier plan, you can make eth_getLogs requests with up to a 10 block range. Based on your parameters, this block range should work: [0x1, 0xa]',
        ),
        10n,
      ],
      [rpc(-32047, 'Exceeded max range limit for eth_getLogs: 800'), 800n], // Cloudflare
      [rpc(-32000, 'Maximum allowed number of requested blocks is 1000'), 1_000n], // thirdweb
    ];
    for (const [error, max] of cases) {
      expect(classifyRpcError(error), error.message).toMatchObject({ kind: 'log_range', maxBlocks: max });
    }
  });

  it('reads range limits without a size, result caps and suggested ranges', () => {
    expect(classifyRpcError(rpc(-32600, 'block range is too wide'))).toEqual({ kind: 'log_range' }); // Ankr
    expect(classifyRpcError(rpc(-32000, 'Block range limit exceeded.'))).toEqual({ kind: 'log_range' }); // Chainstack
    expect(classifyRpcError(rpc(-32000, 'block range too large'))).toEqual({ kind: 'log_range' });
    expect(
      classifyRpcError(
        rpc(-32005, 'query returned more than 10000 results. Try with this block range [0x10, 0x1f].'),
      ),
    ).toEqual({ kind: 'log_results', suggestedBlocks: 16n }); // Infura
    expect(classifyRpcError(rpc(-32005, 'query returned more than 10000 results'))).toEqual({
      kind: 'log_results',
    });
    expect(
      classifyRpcError(
        rpc(
          -32602,
          'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters, this block range should work: [0x100, 0x163]',
        ),
      ),
    ).toEqual({ kind: 'log_range', maxBlocks: 2_000n, suggestedBlocks: 100n }); // Alchemy
    expect(classifyRpcError(rpc(-32000, 'query exceeds max results 20000'))).toEqual({ kind: 'log_results' });
    expect(classifyRpcError(httpError(413))).toEqual({ kind: 'log_results' });
  });

  it('tells rate limits (with Retry-After), timeouts, unreachable and failing endpoints apart', () => {
    expect(classifyRpcError(httpError(429, '', { 'Retry-After': '3' }))).toEqual({
      kind: 'rate_limited',
      retryAfterMs: 3_000,
    });
    // A JSON-RPC error body with an HTTP 429 (viem keeps the response's headers on the RPC error).
    const limited = new RpcRequestError({
      url,
      body: {},
      error: { code: 429, message: 'Too Many Requests' },
      status: 429,
      headers: new Headers({ 'Retry-After': '2' }),
    });
    expect(classifyRpcError(new UnknownRpcError(limited))).toEqual({
      kind: 'rate_limited',
      retryAfterMs: 2_000,
    });
    expect(classifyRpcError(rpc(429, 'Your app has exceeded its compute units per second capacity'))).toEqual(
      {
        kind: 'rate_limited',
      },
    );
    expect(classifyRpcError(rpc(-32007, '100/second request limit reached'))).toEqual({
      kind: 'rate_limited',
    });
    expect(classifyRpcError(rpc(-32005, 'project ID request rate exceeded'))).toEqual({
      kind: 'rate_limited',
    });
    expect(classifyRpcError(rpc(-32005, 'limit exceeded'))).toEqual({ kind: 'rate_limited' });
    expect(classifyRpcError(new TimeoutError({ body: {}, url }))).toEqual({ kind: 'timeout' });
    expect(classifyRpcError(httpError(504))).toEqual({ kind: 'timeout' });
    expect(classifyRpcError(httpError(502))).toEqual({ kind: 'server' });
    expect(
      classifyRpcError(new HttpRequestError({ url, body: {}, cause: new TypeError('fetch failed') })),
    ).toEqual({ kind: 'unreachable' });
    expect(classifyRpcError(rpc(-32000, 'header not found'))).toEqual({ kind: 'missing_block' });
    expect(classifyRpcError(rpc(-32602, 'invalid argument 0: hex string without 0x prefix'))).toEqual({
      kind: 'rejected',
    });
    expect(
      classifyRpcError(
        new EndpointRestingError({ endpoint: 'e', kind: 'rate_limited', retryAfterMs: 5, reason: '' }),
      ),
    ).toEqual({ kind: 'rate_limited', retryAfterMs: 5 });
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates', () => {
    expect(retryAfterMs('2')).toBe(2_000);
    expect(retryAfterMs('0.5')).toBe(500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});
