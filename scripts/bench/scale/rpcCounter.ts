/**
 * A JSON-RPC proxy in front of the dev chain that counts every call the service makes, per method
 * (a batch counts each of its calls). The service is pointed at the proxy; the benchmark's own
 * shoppers talk to the chain directly, so only the service's calls are counted.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running counting proxy. */
export interface RpcCounter {
  url: string;
  /** Calls so far, per JSON-RPC method. */
  counts(): Map<string, number>;
  /** Calls so far, all methods. */
  total(): number;
  close(): Promise<void>;
}

/** Starts the proxy on loopback, forwarding to `upstream`. */
export async function startRpcCounter(upstream: string): Promise<RpcCounter> {
  const target = new URL(upstream);
  const counts = new Map<string, number>();
  const count = (call: unknown) => {
    const method =
      call && typeof call === 'object' && typeof (call as { method?: unknown }).method === 'string'
        ? (call as { method: string }).method
        : '(invalid)';
    counts.set(method, (counts.get(method) ?? 0) + 1);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      try {
        const parsed: unknown = JSON.parse(body.toString('utf8'));
        if (Array.isArray(parsed)) for (const call of parsed) count(call);
        else count(parsed);
      } catch {
        count(undefined);
      }
      const forward = request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          method: req.method,
          headers: { 'content-type': 'application/json', 'content-length': body.length },
        },
        (upstreamRes) => {
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
          upstreamRes.pipe(res);
        },
      );
      forward.on('error', (error) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(error.message);
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts: () => new Map(counts),
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
