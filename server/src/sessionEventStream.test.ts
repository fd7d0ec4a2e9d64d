import { EventEmitter } from 'node:events';
import type { CheckoutSession } from '@checkout/core';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';
import { createMetrics } from './metrics.ts';
import { openSessionEventStream } from './sessionEventStream.ts';
import type { SessionEvents } from './sessionEvents.ts';

type SessionWatcher = Parameters<SessionEvents['watch']>[1];

const id = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

/** A fan-out the test drives by hand. */
function fakeEvents() {
  const watchers = new Set<SessionWatcher>();
  const events: SessionEvents = {
    watch(_id, watcher) {
      watchers.add(watcher);
      return () => watchers.delete(watcher);
    },
    async close() {
      for (const watcher of [...watchers]) watcher.end();
    },
  };
  const wake = () => {
    for (const watcher of [...watchers]) watcher.wake();
  };
  return { events, watchers, wake };
}

const session = (status: CheckoutSession['status'], confirmations: number, at: number) =>
  ({ id, status, confirmations, updated_at: new Date(at).toISOString() }) as CheckoutSession;

/** A read the test answers: each call waits until the test releases it. */
function controlledRead() {
  const pending: Array<(value: CheckoutSession | undefined) => void> = [];
  return {
    calls: () => pending.length,
    read: () => new Promise<CheckoutSession | undefined>((resolve) => pending.push(resolve)),
    answer: (index: number, value: CheckoutSession | undefined) => pending[index]!(value),
  };
}

const tick = () => new Promise((r) => setImmediate(r));

async function collect(stream: NodeJS.ReadableStream): Promise<string[]> {
  const chunks: string[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  await new Promise((r) => stream.on('end', r));
  return chunks;
}

describe('openSessionEventStream', () => {
  it('reads once per burst of wakes, sends only changes and ends with a final state', async () => {
    const { events, watchers, wake } = fakeEvents();
    const metrics = createMetrics();
    const reads = controlledRead();
    const opening = openSessionEventStream({
      events,
      metrics,
      log: createLogger('silent'),
      sessionId: id,
      read: reads.read,
      closed: new EventEmitter(),
    });
    await tick();
    reads.answer(0, session('awaiting_payment', 0, 1));
    const stream = (await opening)!;
    const sent = collect(stream);
    expect((await metrics.sessionStreams.get()).values[0]!.value).toBe(1);

    wake();
    wake();
    wake();
    await tick();
    // Three wakes while nothing is read: one read, then one more for the wakes that came during it.
    expect(reads.calls()).toBe(2);
    wake();
    wake();
    reads.answer(1, session('awaiting_payment', 0, 1));
    await tick();
    expect(reads.calls()).toBe(3);
    reads.answer(2, session('confirming', 1, 2));
    await tick();
    wake();
    await tick();
    reads.answer(3, session('resolved', 1, 3));

    const chunks = await sent;
    expect(chunks.map((c) => JSON.parse(c.split('data: ')[1]!).status)).toEqual([
      'awaiting_payment',
      'confirming',
      'resolved',
    ]);
    expect((await metrics.sessionEventsPushed.get()).values[0]!.value).toBe(3);
    expect((await metrics.sessionStreams.get()).values[0]!.value).toBe(0);
    expect(watchers.size).toBe(0);
  });

  it('answers undefined for a session that does not exist, and ends when the process stops', async () => {
    const { events, watchers } = fakeEvents();
    const common = {
      events,
      metrics: createMetrics(),
      log: createLogger('silent'),
      sessionId: id,
      closed: new EventEmitter(),
    };
    expect(await openSessionEventStream({ ...common, read: async () => undefined })).toBeUndefined();
    expect(watchers.size).toBe(0);

    const stream = (await openSessionEventStream({
      ...common,
      read: async () => session('expired', 0, 1),
    }))!;
    const sent = collect(stream);
    expect(watchers.size).toBe(1);
    await events.close();
    expect(await sent).toHaveLength(1);
    expect(watchers.size).toBe(0);
  });
});
