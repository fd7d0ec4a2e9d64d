/** A local SMTP server that keeps every message as a file, so a developer can read what the shop sends. */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { envelopeToHeader, type InboxMessage, readInbox } from './readInbox.ts';

/** Where the dev inbox listens and stores. */
export interface DevInboxOptions {
  /** Interface to listen on (default 127.0.0.1: the inbox has no authentication). */
  host?: string;
  /** 0 (the default) takes a free port. */
  port?: number;
  /** Directory of the `.eml` files; created when missing. */
  dir: string;
}

/** Options of DevInbox.waitFor. */
export interface WaitForOptions {
  /** Give up after this long (default 5 s). */
  timeoutMs?: number;
}

/** A running dev inbox. */
export interface DevInbox {
  /** URL to give createMailer, e.g. `smtp://127.0.0.1:2525`. */
  smtpUrl: string;
  port: number;
  dir: string;
  /** Stored messages, oldest first. */
  list(): Promise<InboxMessage[]>;
  /** The first stored message matching `predicate`; rejects when none arrives in time. */
  waitFor(predicate: (message: InboxMessage) => boolean, options?: WaitForOptions): Promise<InboxMessage>;
  /** Stops listening; connections still open after a short grace period are cut. */
  close(): Promise<void>;
}

/** Largest message accepted, in bytes. */
export const devInboxMaxMessageBytes = 1024 * 1024;

const pollIntervalMs = 20;

/** Starts the dev inbox: SMTP without authentication or TLS, each message stored as `<dir>/<timestamp>-<id>.eml`. */
export async function startDevInbox(options: DevInboxOptions): Promise<DevInbox> {
  const host = options.host ?? '127.0.0.1';
  const dir = options.dir;
  await mkdir(dir, { recursive: true });

  const server = new SMTPServer({
    banner: 'checkout dev inbox',
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    size: devInboxMaxMessageBytes,
    rejectOversized: true,
    disableReverseLookup: true,
    maxClients: 64,
    maxRecipients: 100,
    closeTimeout: 2_000,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      let received = 0;
      stream.on('data', (chunk: Buffer) => {
        received += chunk.length;
        // Past the limit the rest is only counted, so an oversized message cannot fill memory.
        if (received <= devInboxMaxMessageBytes) chunks.push(chunk);
      });
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          callback(smtpError('message exceeds fixed maximum message size', 552));
          return;
        }
        // The client hears 250 only once the file is complete, so a finished send is already readable.
        store(dir, session, Buffer.concat(chunks)).then(
          () => callback(),
          () => callback(smtpError('could not store the message', 451)),
        );
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  // After start-up a failing connection must not crash the process that hosts the inbox.
  server.on('error', () => undefined);
  const port = (server.server.address() as AddressInfo).port;

  const cache = new Map<string, InboxMessage>();
  const list = () => readInbox(dir, { cache });
  return {
    smtpUrl: `smtp://${urlHost(host)}:${port}`,
    port,
    dir,
    list,
    async waitFor(predicate, waitOptions = {}) {
      const timeoutMs = waitOptions.timeoutMs ?? 5_000;
      const deadline = Date.now() + timeoutMs;
      const maxRounds = Math.ceil(timeoutMs / pollIntervalMs) + 1;
      for (let round = 0; round < maxRounds; round++) {
        const found = (await list()).find(predicate);
        if (found) return found;
        const remaining = deadline - Date.now();
        if (remaining <= 0) break;
        await sleep(Math.min(pollIntervalMs, remaining));
      }
      throw new Error(`no matching message in ${dir} within ${timeoutMs} ms`);
    },
    close() {
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Writes under a dot-name, then renames: readers list only `.eml` names, so they never see half a file. */
async function store(dir: string, session: SMTPServerSession, raw: Buffer): Promise<void> {
  const id = `${String(Date.now()).padStart(13, '0')}-${randomBytes(6).toString('hex')}`;
  const temporary = join(dir, `.${id}.tmp`);
  const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
  // The envelope goes in front as header lines, as a delivering server adds Return-Path, so Bcc is visible.
  const envelope = [
    `Return-Path: <${mailFrom}>`,
    ...session.envelope.rcptTo.map((rcpt) => `${envelopeToHeader}: ${rcpt.address}`),
  ];
  try {
    await writeFile(temporary, Buffer.concat([Buffer.from(`${envelope.join('\r\n')}\r\n`), raw]));
    await rename(temporary, join(dir, `${id}.eml`));
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

function smtpError(message: string, responseCode: number): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode });
}

/** The host part of the SMTP URL: wildcard listeners are reached over loopback, IPv6 needs brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
