/**
 * What the tests wait on, in one place. A wait ends at the event that shows the change: a session's pushed
 * change (its event stream, fed by the session's LISTEN channel), or the row or answer the service writes,
 * read until it shows it. A wait is bounded only to fail with a message instead of hanging; nothing waits a
 * fixed time. (The inbox and the webhook receiver wait on their own arrivals: `DevInbox`,
 * `WebhookReceiver.waitFor`.)
 */
import type { CheckoutSession } from '@checkout/core';
import type { Db } from '@checkout/db';
import { openSessionStream } from '../../scripts/bench/streams/sessionStream.ts';

/**
 * Reads until `done` accepts what `read` returns, and returns that; after `timeoutMs` fails naming `what` and
 * the last value read.
 */
export async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`${what}: still ${JSON.stringify(value)?.slice(0, 2_000)} after ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The checkout session `id` once its event stream shows it in one of `statuses` (at once when it already
 * is); fails when the stream ends in another state.
 */
export async function waitForSession(
  service: { url: string },
  id: string,
  statuses: readonly string[],
  timeoutMs = 45_000,
): Promise<CheckoutSession> {
  const stream = await openSessionStream(service.url, id);
  try {
    const event = await stream
      .next((session) => statuses.includes(session.status), timeoutMs)
      .catch((error: Error) => {
        const last = stream.events.at(-1)?.session.status ?? 'unseen';
        throw new Error(`session ${id} is ${last}, not ${statuses.join(' or ')}: ${error.message}`);
      });
    return event.session as CheckoutSession;
  } finally {
    stream.close();
  }
}

/**
 * Once the chain watcher of `chainId` has read block `block` (`chain_watch_status.read_to_block`, written in
 * the transaction that records what the tick read): what that block holds has been recorded, or passed
 * over, by then.
 */
export async function waitForBlockRead(db: Db['kysely'], chainId: number, block: bigint): Promise<void> {
  await waitFor(
    () =>
      db
        .selectFrom('chain_watch_status')
        .select('read_to_block')
        .where('chain_id', '=', chainId)
        .executeTakeFirst(),
    (row) => row?.read_to_block != null && BigInt(row.read_to_block) >= block,
    `the chain watcher never read block ${block}`,
  );
}

/**
 * The webhook deliveries about `subject` (its id, or its id then `:` and what changed) once there are `count`
 * and every one was delivered. Each delivery is written once, with the change it announces; a retried
 * attempt finds its effect claim done and sends nothing: after this, no other request about them follows.
 */
export async function waitForDeliveries(
  db: Db['kysely'],
  subject: string,
  count: number,
): Promise<{ event_type: string; subject_id: string }[]> {
  return waitFor(
    () =>
      db
        .selectFrom('webhook_deliveries')
        .select(['event_type', 'subject_id', 'status'])
        .where((eb) => eb.or([eb('subject_id', '=', subject), eb('subject_id', 'like', `${subject}:%`)]))
        .execute(),
    (rows) => rows.length >= count && rows.every((r) => r.status === 'succeeded'),
    `the webhook deliveries about ${subject}`,
  );
}
