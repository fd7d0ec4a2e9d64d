/** The merchant's webhook endpoint on 127.0.0.1: notes when each expected payment's resolution arrives. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** When a webhook arrived. */
interface Arrival {
  /** Epoch ms. */
  at: number;
  /** performance.now() at arrival. */
  atMono: number;
}

/** A running receiver. */
export interface BenchReceiver {
  url: string;
  /** Every arrival so far, in order (for rates over a window). */
  arrivals: Arrival[];
  /** Resolves when the webhook for `expectedPaymentId` arrives; rejects after `timeoutMs`. */
  waitFor(expectedPaymentId: string, timeoutMs: number): Promise<Arrival>;
  close(): Promise<void>;
}

/** Starts a receiver that answers 200 to every POST and matches bodies by `expected_payment_id`. */
export async function startReceiver(): Promise<BenchReceiver> {
  const arrivals: Arrival[] = [];
  const early = new Map<string, Arrival>();
  const waiting = new Map<string, (arrival: Arrival) => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const arrival = { at: Date.now(), atMono: performance.now() };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
      let id: unknown;
      try {
        id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { expected_payment_id?: unknown })
          .expected_payment_id;
      } catch {
        return;
      }
      if (typeof id !== 'string') return;
      arrivals.push(arrival);
      const resolve = waiting.get(id);
      if (resolve) {
        waiting.delete(id);
        resolve(arrival);
      } else if (early.size < 100_000) {
        early.set(id, arrival);
      }
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/payments`,
    arrivals,
    waitFor(expectedPaymentId, timeoutMs) {
      const already = early.get(expectedPaymentId);
      if (already) {
        early.delete(expectedPaymentId);
        return Promise.resolve(already);
      }
      return new Promise<Arrival>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(expectedPaymentId);
          reject(new Error(`no webhook for expected payment ${expectedPaymentId} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.set(expectedPaymentId, (arrival) => {
          clearTimeout(timer);
          resolve(arrival);
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
