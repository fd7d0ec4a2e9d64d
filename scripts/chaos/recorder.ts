/** The merchant's endpoints during a chaos run: every request they received, for counting. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Every request the merchant's endpoints received. */
export interface Received {
  webhookId: string;
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: payloads are read field by field
  body: any;
}

/** Starts the recorder on loopback. */
export async function startRecorder(): Promise<{
  url: string;
  received: Received[];
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
      try {
        received.push({
          webhookId: String(req.headers['x-webhook-id'] ?? ''),
          event: String(req.headers['x-webhook-event'] ?? ''),
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        });
      } catch {
        // not JSON: not one of ours
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
