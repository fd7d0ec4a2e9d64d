import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getBlockNumber, getLogs } from 'viem/actions';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChainClient, createChainClients, type RpcObserver } from './chainClients.ts';
import { EndpointRestingError } from './rpcErrors.ts';

const key = '0123456789abcdef0123456789abcdef';
type Answer = { status?: number; headers?: Record<string, string>; body: unknown };

/** A JSON-RPC endpoint answering each call with `answer(method, params)`; counts what reached it. */
async function endpoint(answer: (method: string, params: unknown[]) => Answer) {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const call = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        id: number;
        method: string;
        params: unknown[];
      };
      seen.push(call.method);
      const a = answer(call.method, call.params);
      res.writeHead(a.status ?? 200, { 'content-type': 'application/json', ...a.headers });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, ...(a.body as object) }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3/${key}`, seen };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

function client(urls: string[], observer: RpcObserver = {}): ChainClient {
  return createChainClients(
    [{ chainId: 97, name: 'Test chain', rpcUrls: urls, confirmations: 1 }],
    observer,
  ).get(97)!;
}

/** A port nothing listens on. */
async function closedPort(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return `http://127.0.0.1:${port}/v2/${key}`;
}

describe('chain clients with several endpoints', () => {
  it('fail over to the next endpoint, count the failure, and rest the failing one', async () => {
    const errors: Array<{ kind: string; endpoint: number; method: string }> = [];
    const second = await endpoint(() => ({ body: { result: '0x2a' } }));
    const chain = client([await closedPort(), second.url], { onError: (e) => errors.push(e) });
    for (let i = 0; i < 5; i++) expect(await getBlockNumber(chain.client, { cacheTime: 0 })).toBe(42n);
    // Two failures in a row rest the first endpoint: the next calls go to the second at once.
    expect(errors).toEqual([
      { chainId: 97, method: 'eth_blockNumber', kind: 'unreachable', endpoint: 1 },
      { chainId: 97, method: 'eth_blockNumber', kind: 'unreachable', endpoint: 1 },
    ]);
    expect(second.seen).toHaveLength(5);
  });

  it("wait out a 429's Retry-After when no endpoint may be asked: nothing is sent before it", async () => {
    let limited = 1;
    const errors: string[] = [];
    const only = await endpoint(() =>
      limited-- > 0
        ? {
            status: 429,
            headers: { 'retry-after': '2' },
            body: { error: { code: 429, message: 'Too Many Requests' } },
          }
        : { body: { result: '0x7' } },
    );
    const down = await closedPort();
    const chain = client([only.url, down], { onError: (e) => errors.push(`${e.kind}@${e.endpoint}`) });
    const asked = Date.now();
    expect(await getBlockNumber(chain.client, { cacheTime: 0 })).toBe(7n);
    expect(Date.now() - asked).toBeGreaterThanOrEqual(1_900);
    expect(only.seen).toHaveLength(2);
    expect(errors[0]).toBe('rate_limited@1');
    // A rate limit that outlasts the wait fails the call, named as such (not as the other endpoint's fault).
    const busy = await endpoint(() => ({
      status: 429,
      headers: { 'retry-after': '60' },
      body: { error: { code: 429, message: 'Too Many Requests' } },
    }));
    const failure = await getBlockNumber(client([busy.url]).client, { cacheTime: 0 }).catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(EndpointRestingError);
    expect((failure as EndpointRestingError).kind).toBe('rate_limited');
    expect(JSON.stringify({ ...(failure as Error), stack: (failure as Error).stack })).not.toContain(key);
  });

  it('ask no endpoint for logs it has not proved it holds, nor trust a stale head', async () => {
    const lagging = await endpoint((method, params) => {
      if (method === 'eth_blockNumber') return { body: { result: '0x64' } };
      if (method === 'eth_getBlockByNumber') return { body: { result: { hash: `0x${'1'.repeat(64)}` } } };
      // The node behind its eth_getLogs has not reached the block: refused by hash, left out by range.
      if ((params[0] as { blockHash?: string }).blockHash) {
        return { body: { error: { code: -32000, message: 'unknown block' } } };
      }
      return { body: { result: [] } };
    });
    const log = { address: `0x${'a'.repeat(40)}`, topics: [], data: '0x', blockNumber: '0x64' };
    const fresh = await endpoint((method) => {
      if (method === 'eth_blockNumber') return { body: { result: '0x82' } };
      if (method === 'eth_getBlockByNumber') return { body: { result: { hash: `0x${'2'.repeat(64)}` } } };
      return { body: { result: [log] } };
    });
    const chain = client([lagging.url, fresh.url]);
    expect(await getLogs(chain.client, { fromBlock: 90n, toBlock: 100n })).toHaveLength(1);
    expect(lagging.seen.filter((m) => m === 'eth_getLogs')).toHaveLength(1);
    // Every endpoint's head, ranked: the first is stale, its head is not taken, and it is not asked for logs.
    expect(await chain.readHeads!()).toBe(130n);
    expect(await getBlockNumber(chain.client, { cacheTime: 0 })).toBe(130n);
    lagging.seen.length = 0;
    expect(await getLogs(chain.client, { fromBlock: 100n, toBlock: 130n })).toHaveLength(1);
    expect(lagging.seen).toEqual([]);
  });

  it('ask an endpoint for eth_getLogs in the parts it serves, and keep no key in a failure', async () => {
    const kinds: string[] = [];
    const ranges: Array<[number, number]> = [];
    const limited = await endpoint((method, params) => {
      if (method === 'eth_getBlockByNumber') return { body: { result: { hash: `0x${'1'.repeat(64)}` } } };
      if (method !== 'eth_getLogs') return { body: { error: { code: -32000, message: 'header not found' } } };
      const f = params[0] as { fromBlock: string; toBlock: string; blockHash?: string };
      if (f.blockHash) return { body: { result: [] } };
      const [from, to] = [Number(f.fromBlock), Number(f.toBlock)];
      ranges.push([from, to]);
      if (to - from + 1 > 500) {
        return {
          status: 413,
          body: { error: { code: -32614, message: 'eth_getLogs is limited to a 500 range' } },
        };
      }
      return { body: { result: [] } };
    });
    const chain = client([limited.url], { onError: (e) => kinds.push(e.kind) });
    expect(await getLogs(chain.client, { fromBlock: 0n, toBlock: 1_999n })).toEqual([]);
    expect(ranges).toEqual([
      [0, 1_999],
      [0, 499],
      [500, 999],
      [1_000, 1_499],
      [1_500, 1_999],
    ]);
    expect(kinds).toEqual(['log_range']);
    const failure = (await chain.client
      .request({ method: 'eth_chainId' })
      .catch((e: unknown) => e)) as Error & {
      url?: string;
    };
    expect(failure.message).toContain('header not found');
    expect(`${failure.message}${failure.stack}${failure.url}`).not.toContain(key);
  });
});
