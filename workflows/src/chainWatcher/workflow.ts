/**
 * `chainWatcher`: one per configured chain. Ticks forever: each tick an activity reads the chain's new
 * blocks once for every open checkout, records the transfers into their receiving addresses and tells the
 * checkouts they may pay (see activities.ts). Between ticks it sleeps, or, while a shopper pays from a
 * phone, waits for the chain's next block (an activity asking for the head once a block time) and ticks
 * as soon as one is mined. Where it got to is kept in the database, so a watcher that is killed or
 * restarted resumes there. The memo shows its position in the Temporal UI.
 */
import { continueAsNew, log, proxyActivities, sleep, upsertMemo } from '@temporalio/workflow';
import type { ReorgActivities } from '../reorg/activities.ts';
import type { UnmatchedActivities } from '../unmatched/activities.ts';
import type { ChainWatcherActivities } from './activities.ts';
import type { ChainWatcherInput } from './shared.ts';

const watch = proxyActivities<ChainWatcherActivities>({
  startToCloseTimeout: '2 minutes',
  // A chain or database outage is waited out; the tick starts again from the recorded position. A failed
  // tick costs little (an endpoint resting after failures is not even asked), so it is tried again often.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

// Transfers no session took become unmatched transfers once no session can take them any more. A failed
// settling never holds the watcher up: the next tick settles again.
const settle = proxyActivities<UnmatchedActivities & ReorgActivities>({
  startToCloseTimeout: '1 minute',
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
  for (let tick = 0; tick < ticksPerRun; tick++) {
    const done = await watch.watchChainTick({ chainId: input.chainId });
    try {
      await settle.settleTransfers({ chainId: input.chainId });
      // Payments in blocks a reorganisation took away are reversed or moved, and announced.
      await settle.recheckPayments({ chainId: input.chainId });
    } catch (error) {
      log.warn('settling transfers or re-checking payments failed; the next tick tries again', {
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
      await sleep(done.sleepMs);
    }
  }
  await continueAsNew<typeof chainWatcher>(input);
}
