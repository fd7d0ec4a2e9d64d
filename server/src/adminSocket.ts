/**
 * A Unix socket in the data directory through which the CLI manages keys while the server holds the
 * embedded database (PGlite allows one process). Access is the file system's: owner only.
 */
import { once } from 'node:events';
import { chmodSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { text } from 'node:stream/consumers';
import type { Db } from '@checkout/db';
import { type AdminCommand, runAdminCommand } from './adminCommands.ts';
import type { Logger } from './logger.ts';

/** Serves one JSON command per connection: `{"command": …}` in, `{"ok": true, "result": …}` out. */
export async function startAdminSocket(
  path: string,
  db: Db,
  logger: Logger,
): Promise<{ close(): Promise<void> }> {
  const server = createServer((socket) => {
    let input = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      input += chunk;
      if (input.length > 65_536) socket.destroy();
      if (!input.includes('\n')) return;
      const line = input.slice(0, input.indexOf('\n'));
      void (async () => {
        try {
          const result = await runAdminCommand(db, JSON.parse(line) as AdminCommand);
          socket.end(`${JSON.stringify({ ok: true, result })}\n`);
        } catch (error) {
          logger.warn({ err: error }, 'admin command failed');
          socket.end(`${JSON.stringify({ ok: false, error: (error as Error).message })}\n`);
        }
      })();
    });
    socket.on('error', () => socket.destroy());
  });
  await once(server.listen(path), 'listening');
  chmodSync(path, 0o600);
  return { close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Sends one command to a running server's admin socket. */
export async function sendAdminCommand(
  path: string,
  command: AdminCommand,
  timeoutMs = 10_000,
): Promise<unknown> {
  const socket = createConnection(path);
  socket.write(`${JSON.stringify(command)}\n`);
  const timer = setTimeout(
    () => socket.destroy(new Error('the running server did not answer on its admin socket')),
    timeoutMs,
  );
  const output = await text(socket).finally(() => clearTimeout(timer));
  let reply: { ok: boolean; result?: unknown; error?: string };
  try {
    reply = JSON.parse(output);
    if (reply.ok) return reply.result;
  } catch {
    throw new Error('the running server sent an unreadable reply');
  }
  throw new Error(reply.error ?? 'admin command failed');
}
