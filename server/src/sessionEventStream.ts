/**
 * The server-sent events of one checkout session: the session once at the start, then again each time a
 * change is pushed and the session reads differently. Idle, a stream costs the database nothing.
 */
import { PassThrough } from 'node:stream';
import type { CheckoutSession } from '@checkout/core';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics.ts';
import type { SessionEvents } from './sessionEvents.ts';

/** Statuses after which the session never changes again. */
const finalStatuses = new Set<CheckoutSession['status']>(['resolved', 'failed']);

/** What a stream needs. */
export interface SessionEventStreamOptions {
  events: SessionEvents;
  metrics: Metrics;
  log: Logger;
  sessionId: string;
  /** The session's wire shape now, or undefined when it does not exist. */
  read(): Promise<CheckoutSession | undefined>;
  /** Ends the stream: the client went away. */
  closed: { once(event: 'close', listener: () => void): unknown };
  /** Longest life of one stream (the client reconnects). */
  maxMs?: number;
  /** Comment lines that keep proxies from closing an idle stream. */
  keepAliveMs?: number;
}

/**
 * Opens the stream, or returns undefined when the session does not exist. The watch starts before the
 * first read, so a change committed in between is not missed.
 */
export async function openSessionEventStream(
  options: SessionEventStreamOptions,
): Promise<PassThrough | undefined> {
  const { events, metrics, log } = options;
  const stream = new PassThrough();
  let last = '';
  let version: number | undefined;
  let ended = false;
  let reading = false;
  let readAgain = false;
  let timers: NodeJS.Timeout[] = [];
  let unwatch: (() => void) | undefined;

  const end = () => {
    if (ended) return;
    ended = true;
    unwatch?.();
    for (const timer of timers) clearTimeout(timer);
    metrics.sessionStreams.dec();
    stream.end();
  };

  const send = (session: CheckoutSession) => {
    version = Date.parse(session.updated_at);
    const payload = JSON.stringify(session);
    if (payload !== last) {
      last = payload;
      stream.write(`event: session\ndata: ${payload}\n\n`);
      metrics.sessionEventsPushed.inc();
    }
    if (finalStatuses.has(session.status)) end();
  };

  // Wakes arriving during a read coalesce into one more read.
  const refresh = async () => {
    if (ended) return;
    if (reading) {
      readAgain = true;
      return;
    }
    reading = true;
    try {
      do {
        readAgain = false;
        const session = await options.read();
        if (ended) return;
        if (!session) return end();
        send(session);
      } while (readAgain && !ended);
    } catch (error) {
      // The next wake, or the safety poll, reads again.
      log.warn({ err: error }, 'session event stream could not read the session');
    } finally {
      reading = false;
    }
  };

  metrics.sessionStreams.inc();
  unwatch = events.watch(options.sessionId, {
    wake: () => void refresh(),
    version: () => version,
    end,
  });
  options.closed.once('close', end);
  let first: CheckoutSession | undefined;
  reading = true;
  try {
    first = await options.read();
  } catch (error) {
    end();
    throw error;
  } finally {
    reading = false;
  }
  if (!first) {
    end();
    return undefined;
  }
  if (ended) return stream;
  send(first);
  if (readAgain) void refresh();
  if (!ended) {
    const keepAlive = setInterval(() => stream.write(': keep-alive\n\n'), options.keepAliveMs ?? 15_000);
    timers = [keepAlive, setTimeout(end, options.maxMs ?? 600_000)];
  }
  return stream;
}
