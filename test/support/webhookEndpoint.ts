/**
 * A merchant's webhook endpoint on 127.0.0.1 that keeps every request's exact bytes and answers each
 * as scripted, including by dropping the connection.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the endpoint saw it. */
interface EndpointRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact body bytes. */
  body: Buffer;
  receivedAt: number;
}

/** How to answer one request: a status (with headers and body), or a dropped connection. */
export type EndpointReply = { status: number; headers?: Record<string, string>; body?: string } | 'reset';

/** A running endpoint. */
export interface WebhookEndpoint {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  requests: EndpointRequest[];
  /** Resolves once `count` requests arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<EndpointRequest[]>;
  close(): Promise<void>;
}

/** Starts an endpoint; `reply(n)` answers the n-th request (0-based), `200 {}` by default. */
export async function startWebhookEndpoint(
  reply: (index: number) => EndpointReply = () => ({ status: 200 }),
): Promise<WebhookEndpoint> {
  const requests: EndpointRequest[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = reply(requests.length);
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        receivedAt: Date.now(),
      });
      for (const wake of waiters) wake();
      if (answer === 'reset') {
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body ?? '{}');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    waitFor(count, timeoutMs = 20_000) {
      if (requests.length >= count) return Promise.resolve(requests.slice());
      return new Promise((resolve, reject) => {
        const wake = () => {
          if (requests.length < count) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(requests.slice());
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`the endpoint got ${requests.length} of ${count} requests in ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(wake);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
