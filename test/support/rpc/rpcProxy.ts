/**
 * A JSON-RPC proxy on 127.0.0.1 in front of a node (the dev chain), that misbehaves as RPC providers do,
 * on demand: a load balancer whose `eth_getLogs` node lags the head, `eth_getLogs` range and result
 * limits (with the providers' own error answers), rate limits with `Retry-After`, and an outage. Used by
 * the integration tests and by `npm run chaos -- --rpc-faults`; only node built-ins, so scripts can run it.
 *
 * Its URL carries a made-up provider key in the path and the query, as real endpoints do, so a test can
 * check that the key appears in no log line.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** How the proxy misbehaves; every field is off when absent. */
export interface RpcFaults {
  /**
   * `eth_getLogs` is answered by a node this many blocks behind the head: the newest blocks' logs are left
   * out, without an error, and a block it has not reached is refused by hash ("unknown block", as geth).
   */
  lagBlocks?: number;
  /** The whole endpoint is a node this many blocks behind: its head, its blocks and its logs. */
  staleBlocks?: number;
  /** Every call is answered after this many milliseconds. */
  delayMs?: number;
  /** This share of calls (0–1, spread evenly) is answered HTTP 429 with `Retry-After`. */
  rateLimitShare?: { share: number; retryAfterSeconds: number };
  /** `eth_getLogs` over more blocks than `blocks` is refused, in the words of `style`. */
  rangeLimit?: { blocks: number; style: 'quicknode' | 'bsc' | 'ankr' | 'alchemy' | 'infura' };
  /** `eth_getLogs` returning more logs than this is refused (Infura: "query returned more than … results"). */
  resultLimit?: number;
  /** At most `perSecond` calls a second are served; the others get HTTP 429 with `Retry-After`. */
  rateLimit?: { perSecond: number; retryAfterSeconds: number };
  /** The provider is down: every connection is cut without an answer. */
  down?: boolean;
}

/** A running proxy. */
export interface RpcProxy {
  /** The endpoint, with a provider key in its path and query. */
  url: string;
  /** The made-up key in `url`. */
  key: string;
  /** Replaces the faults (`{}`: a well-behaved provider). */
  set(faults: RpcFaults): void;
  /** Calls answered, by method, and refusals made, by fault. */
  stats(): { calls: Record<string, number>; refused: Record<string, number> };
  /** When each 429 was answered (`Date.now()`), oldest first. */
  rateLimitedAt(): number[];
  close(): Promise<void>;
}

interface Call {
  jsonrpc?: string;
  id?: unknown;
  method?: string;
  params?: unknown[];
}

/** Starts a proxy to the JSON-RPC endpoint `target` (`http://host:port`). */
export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const key = randomBytes(16).toString('hex');
  let faults: RpcFaults = {};
  const calls: Record<string, number> = {};
  const refused: Record<string, number> = {};
  const served: number[] = [];
  const limitedAt: number[] = [];
  const sockets = new Set<Socket>();
  let requests = 0;
  const count = (table: Record<string, number>, name: string) => {
    table[name] = (table[name] ?? 0) + 1;
  };

  const upstream = async (body: unknown): Promise<unknown> => {
    const response = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return response.json();
  };
  const head = async (): Promise<number> =>
    Number.parseInt(
      ((await upstream({ jsonrpc: '2.0', id: 0, method: 'eth_blockNumber' })) as { result: string }).result,
      16,
    );

  /** One call's answer (a JSON-RPC response object), or an HTTP refusal. */
  const answer = async (
    call: Call,
  ): Promise<{ body: unknown } | { status: number; body: unknown; headers?: Record<string, string> }> => {
    const method = call.method ?? 'unknown';
    count(calls, method);
    const error = (code: number, message: string) => ({
      body: { jsonrpc: '2.0', id: call.id, error: { code, message } },
    });
    const behind = faults.staleBlocks ?? 0;
    if (behind > 0 && method === 'eth_blockNumber') {
      count(refused, 'stale');
      return { body: { jsonrpc: '2.0', id: call.id, result: `0x${((await head()) - behind).toString(16)}` } };
    }
    if (behind > 0 && method === 'eth_getBlockByNumber') {
      const asked = call.params?.[0];
      if (
        typeof asked === 'string' &&
        asked.startsWith('0x') &&
        Number.parseInt(asked, 16) > (await head()) - behind
      ) {
        return { body: { jsonrpc: '2.0', id: call.id, result: null } };
      }
    }
    if (method !== 'eth_getLogs') return { body: await upstream(call) };
    const filter = { ...(call.params?.[0] as Record<string, unknown>) };
    const lag = Math.max(faults.lagBlocks ?? 0, behind);
    if (lag > 0 && typeof filter.blockHash === 'string') {
      const block = (await upstream({
        jsonrpc: '2.0',
        id: 0,
        method: 'eth_getBlockByHash',
        params: [filter.blockHash, false],
      })) as { result?: { number?: string } | null };
      const number = block.result?.number ? Number.parseInt(block.result.number, 16) : undefined;
      if (number === undefined || number > (await head()) - lag) {
        count(refused, 'lag');
        return error(-32000, 'unknown block');
      }
    }
    const from =
      typeof filter.fromBlock === 'string' && filter.fromBlock.startsWith('0x')
        ? Number.parseInt(filter.fromBlock, 16)
        : undefined;
    let to =
      typeof filter.toBlock === 'string' && filter.toBlock.startsWith('0x')
        ? Number.parseInt(filter.toBlock, 16)
        : undefined;
    const limit = faults.rangeLimit;
    if (limit && from !== undefined && to !== undefined && to - from + 1 > limit.blocks) {
      count(refused, 'range');
      const hex = (n: number) => `0x${n.toString(16)}`;
      switch (limit.style) {
        case 'quicknode':
          return {
            status: 413,
            body: {
              jsonrpc: '2.0',
              id: call.id,
              error: {
                code: -32614,
                message: `eth_getLogs is limited to a ${limit.blocks.toLocaleString('en-US')} range`,
              },
            },
          };
        case 'bsc':
          return error(-32000, `exceed maximum block range: ${limit.blocks}`);
        case 'ankr':
          return error(-32600, 'block range is too wide');
        case 'alchemy':
          return error(
            -32600,
            `You can make eth_getLogs requests with up to a ${limit.blocks} block range. Based on your parameters, this block range should work: [${hex(from)}, ${hex(from + limit.blocks - 1)}]`,
          );
        case 'infura':
          return error(-32602, `range ${to - from + 1} exceeds limit of ${limit.blocks}`);
      }
    }
    if (lag > 0 && filter.blockHash === undefined) {
      // The node that answers has not seen the newest blocks: it answers for what it has.
      const seen = (await head()) - lag;
      if (to === undefined || to > seen) {
        count(refused, 'lag');
        to = seen;
      }
      if (from !== undefined && from > to) return { body: { jsonrpc: '2.0', id: call.id, result: [] } };
      filter.toBlock = `0x${to.toString(16)}`;
    }
    const answered = (await upstream({ ...call, params: [filter] })) as { result?: unknown[] };
    if (
      faults.resultLimit !== undefined &&
      Array.isArray(answered.result) &&
      answered.result.length > faults.resultLimit
    ) {
      count(refused, 'results');
      return error(-32005, `query returned more than ${faults.resultLimit} results`);
    }
    return { body: answered };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (faults.down) {
      count(refused, 'down');
      req.socket.destroy();
      return;
    }
    const share = faults.rateLimitShare;
    if (share && Math.floor(++requests * share.share) > Math.floor((requests - 1) * share.share)) {
      count(refused, 'rate');
      limitedAt.push(Date.now());
      res.writeHead(429, {
        'content-type': 'application/json',
        'retry-after': String(share.retryAfterSeconds),
      });
      res.end(
        JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: 429, message: 'Too Many Requests' } }),
      );
      return;
    }
    if (faults.delayMs) await new Promise((r) => setTimeout(r, faults.delayMs));
    const rate = faults.rateLimit;
    if (rate) {
      const now = Date.now();
      while (served.length > 0 && served[0]! <= now - 1000) served.shift();
      if (served.length >= rate.perSecond) {
        count(refused, 'rate');
        limitedAt.push(Date.now());
        res.writeHead(429, {
          'content-type': 'application/json',
          'retry-after': String(rate.retryAfterSeconds),
        });
        res.end(
          JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: 429, message: 'Too Many Requests' } }),
        );
        return;
      }
      served.push(now);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let parsed: Call | Call[];
    try {
      parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Call | Call[];
    } catch {
      res.writeHead(400).end();
      return;
    }
    const answers = await Promise.all((Array.isArray(parsed) ? parsed : [parsed]).map(answer));
    const refusal = answers.find((a) => 'status' in a);
    if (refusal && 'status' in refusal) {
      res.writeHead(refusal.status, { 'content-type': 'application/json', ...refusal.headers });
      res.end(JSON.stringify(refusal.body));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(Array.isArray(parsed) ? answers.map((a) => a.body) : answers[0]!.body));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      // The node behind it is away: the proxy cuts the connection, as a provider's edge does.
      req.socket.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v3/${key}?apikey=${key}`,
    key,
    set(next) {
      faults = { ...next };
      if (faults.down) for (const socket of sockets) socket.destroy();
    },
    stats: () => ({ calls: { ...calls }, refused: { ...refused } }),
    rateLimitedAt: () => [...limitedAt],
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
