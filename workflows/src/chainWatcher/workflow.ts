/**
 * `chainWatcher`: one per configured chain. Ticks forever: each tick an activity reads the chain's new
 * blocks once for every open checkout, records the transfers into their receiving addresses and tells the
 * checkouts they may pay (see activities.ts). Where it got to is kept in the database, so a watcher that
 * is killed or restarted resumes there. The memo shows its position in the Temporal UI.
 */
import { continueAsNew, proxyActivities, sleep, upsertMemo } from '@temporalio/workflow';
import type { ChainWatcherActivities } from './activities.ts';
import type { ChainWatcherInput } from './shared.ts';

const watch = proxyActivities<ChainWatcherActivities>({
  startToCloseTimeout: '2 minutes',
  // A chain or database outage is waited out; the tick starts again from the recorded position.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/** Ticks per run before the history starts afresh. */
const ticksPerRun = 500;

/** The watcher of one chain. */
export async function chainWatcher(input: ChainWatcherInput): Promise<void> {
  let shown = '';
  for (let tick = 0; tick < ticksPerRun; tick++) {
    const done = await watch.watchChainTick({ chainId: input.chainId });
    const memo = `${done.nextBlock}/${done.headBlock}`;
    if (memo !== shown) {
      shown = memo;
      upsertMemo({
        next_block: done.nextBlock,
        head_block: done.headBlock,
        lag_blocks: String(BigInt(done.headBlock) - BigInt(done.nextBlock) + 1n),
      });
    }
    await sleep(done.sleepMs);
  }
  await continueAsNew<typeof chainWatcher>(input);
}
