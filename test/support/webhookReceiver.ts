/** An HTTP endpoint on loopback that records every webhook request, with scripted answers. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One received request. */
interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body bytes as a string, exactly as sent. */
  body: string;
  at: number;
}

/** A running receiver. */
export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Answers the next requests with these statuses, then 200. */
  failNext(...statuses: number[]): void;
  /** Waits (bounded) until `count` requests arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 with a free port. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const script: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const status = script.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: status < 300 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks/payments`,
    received,
    failNext: (...statuses) => script.push(...statuses),
    async waitFor(count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline)
          throw new Error(`only ${received.length} of ${count} webhooks arrived in ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return received.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
