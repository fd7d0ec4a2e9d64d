/**
 * `chainWatcher`: one per configured chain. Ticks forever: each tick an activity reads the chain's new
 * blocks once for every open checkout, records the transfers into their receiving addresses and hands
 * them to their reactions (see activities.ts; what follows each fact: workflows/src/reactions.ts); then the
 * reactions to the blocks read run. Between ticks it sleeps, or, while a shopper pays from a
 * phone, waits for the chain's next block (an activity asking for the head once a block time) and ticks
 * as soon as one is mined. A session a phone may pay wakes a sleeping watcher at once (a signal queued as
 * it opens: `queuePayerlessWake`, workflows/src/checkout/start.ts), so the first phone payment after a quiet
 * spell is followed as closely as the next ones. Where it got to is kept in the database, so a watcher that is killed or
 * restarted resumes there. The memo shows its position in the Temporal UI.
 */
import { condition, continueAsNew, log, proxyActivities, setHandler, upsertMemo } from '@temporalio/workflow';
import type { ChainWatcherActivities } from './activities.ts';
import { type ChainWatcherInput, payerlessSessionOpenedSignal } from './shared.ts';

const watch = proxyActivities<ChainWatcherActivities>({
  startToCloseTimeout: '2 minutes',
  // A chain or database outage is waited out; the tick starts again from the recorded position. A failed
  // tick costs little (an endpoint resting after failures is not even asked), so it is tried again often.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

// The reactions to the blocks read (settling transfers no session can take any more, re-checking payments
// in blocks a reorganisation took away: workflows/src/reactions.ts). A failed one never holds the watcher
// up: the next tick reacts again.
const react = proxyActivities<ChainWatcherActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumAttempts: 2 },
});

const follow = proxyActivities<ChainWatcherActivities>({
  startToCloseTimeout: '1 minute',
  heartbeatTimeout: '15 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds' },
});

/** Ticks per run before the history starts afresh. */
const ticksPerRun = 500;

/** The watcher of one chain. */
export async function chainWatcher(input: ChainWatcherInput): Promise<void> {
  let shown = '';
  // When the chain's newest block was seen, while following it (keeps the asks in step with its blocks).
  let lastSeenAt: number | undefined;
  let woken = false;
  setHandler(payerlessSessionOpenedSignal, () => {
    woken = true;
  });
  for (let tick = 0; tick < ticksPerRun; tick++) {
    woken = false;
    const done = await watch.watchChainTick({ chainId: input.chainId });
    try {
      await react.reactToBlocksRead({ chainId: input.chainId });
    } catch (error) {
      log.warn('reacting to the blocks read failed; the next tick tries again', {
        error: String(error),
      });
    }
    const readTo = done.readTo ?? String(BigInt(done.nextBlock) - 1n);
    const memo = `${done.nextBlock}/${readTo}/${done.headBlock}`;
    if (memo !== shown) {
      shown = memo;
      const lag = BigInt(done.headBlock) - BigInt(readTo);
      upsertMemo({
        next_block: done.nextBlock,
        head_block: done.headBlock,
        lag_blocks: String(lag > 0n ? lag : 0n),
      });
    }
    if (done.follow && done.sleepMs > 1) {
      const seen = await follow.awaitNewBlock({
        chainId: input.chainId,
        after: done.headBlock,
        maxMs: done.sleepMs,
        ...(lastSeenAt === undefined ? {} : { lastSeenAt }),
      });
      lastSeenAt = seen.seenAt ?? undefined;
    } else {
      lastSeenAt = undefined;
      // The interval, or less: a session a phone may pay opened (it then follows the chain).
      await condition(() => woken, done.sleepMs);
    }
  }
  await continueAsNew<typeof chainWatcher>(input);
}
