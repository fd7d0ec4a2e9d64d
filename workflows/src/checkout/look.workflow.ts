/**
 * The closed-tab look (workflow code): while no hash is known, the checkout looks for its payment among the
 * transfers the chain's watcher records — once when it starts (what was recorded before), then on every
 * sighting, when a short payment's wait for the rest ends, and at the window's end. It reads the database only.
 */
import { CancellationScope, condition, isCancellation } from '@temporalio/workflow';
import type { PaymentMatch } from './matching.activities.ts';
import { local } from './proxies.workflow.ts';
import type { CheckoutRun } from './run.workflow.ts';
import type { CheckoutSessionInput } from './shared.ts';

/** What a look found: the transaction to check, the parts that add to it, and whether it is short. */
type Found = Pick<PaymentMatch, 'parts' | 'short'> & { txHash: string };

/** A look that can be started and stopped; `found` is undefined while it runs, a payment, or null at its end. */
export interface Look {
  start(): void;
  stop(): Promise<void>;
  /** Ends the look for good (its window is over): `found` becomes null. */
  finish(): void;
  readonly found: Found | null | undefined;
}

/** Builds the checkout's look over its input and run state. */
export function createLook(input: CheckoutSessionInput, run: CheckoutRun): Look {
  let found: Found | null | undefined;
  let scope: CancellationScope | undefined;
  let done: Promise<void> = Promise.resolve();

  const lookUntilFound = async (): Promise<Found | null> => {
    let looked = -1;
    let retryAt: number | null = null;
    for (;;) {
      const deadline = Math.min(retryAt ?? input.scanUntil, input.scanUntil);
      await condition(() => run.sightings !== looked, Math.max(deadline - Date.now(), 1));
      looked = run.sightings;
      // A look stopped while it reads lets the read finish (a local activity cancelled halfway would replay
      // differently after a failed workflow task); the stop takes effect at the next wait.
      const match = await CancellationScope.nonCancellable(() =>
        local.matchPayment({
          sessionId: input.sessionId,
          chainId: input.chainId,
          exclude: [...run.rejected],
        }),
      );
      if (match.txHash) return { txHash: match.txHash, parts: match.parts, short: match.short };
      retryAt = match.retryAt;
      if (retryAt === null && Date.now() >= input.scanUntil) return null;
    }
  };

  return {
    start() {
      found = undefined;
      const current = new CancellationScope();
      scope = current;
      done = current.run(lookUntilFound).then(
        (payment) => {
          found = payment;
        },
        (error: unknown) => {
          if (!isCancellation(error)) throw error;
        },
      );
    },
    async stop() {
      scope?.cancel();
      scope = undefined;
      await done;
    },
    finish() {
      found = null;
    },
    get found() {
      return found;
    },
  };
}
