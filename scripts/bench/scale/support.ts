/** What bench:scale runs beside the service: the merchant's webhook endpoint, a bounded pool, process memory. */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resident memory of a process in MB, from /proc (Linux). */
export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
    return Math.round((kb / 1024) * 10) / 10;
  } catch {
    return Number.NaN;
  }
}

/** The merchant's webhook endpoint: when each payment's first request arrived, and every request. */
export async function startReceiver() {
  const firstArrival = new Map<string, number>();
  const deliveries = new Map<string, Set<string>>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
      if (req.headers['x-webhook-event'] !== 'resolved_payment.created') return;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { expected_payment_id?: string };
        const id = body.expected_payment_id;
        if (!id) return;
        if (!firstArrival.has(id)) firstArrival.set(id, at);
        const ids = deliveries.get(id) ?? new Set<string>();
        ids.add(String(req.headers['x-webhook-id'] ?? ''));
        deliveries.set(id, ids);
      } catch {
        // not one of ours
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    firstArrival,
    deliveries,
    async waitFor(id: string, timeoutMs: number): Promise<number> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const at = firstArrival.get(id);
        if (at !== undefined) return at;
        if (Date.now() > deadline) throw new Error(`no webhook for ${id} within ${timeoutMs / 1000} s`);
        await sleep(20);
      }
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** Runs `work` over `items` with at most `width` at once. */
export async function pool<T>(items: T[], width: number, work: (item: T, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index]!, index);
      }
    }),
  );
}
