/**
 * The closed-tab look (workflow code): while no hash is known, the checkout looks for its payment among the
 * transfers the chain's watcher records — once when it starts (what was recorded before), then on every
 * sighting, when a short payment's wait for the rest ends, and at the window's end. It reads the database only.
 *
 * A session with a payer's wallet reads what was recorded before its run started only at `firstReadAt`
 * (or on its first sighting): a transfer recorded once the run exists signals it, and the run usually exists
 * before anyone has the session's reference (it is started before its opening is answered), so its first look
 * most often finds nothing, while it would hold the workflow task in which the shopper's hash arrives.
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

  // Only the run's first look may put off its first read; one started again (after a refused hash) reads at once.
  let firstReadAt = input.firstReadAt ?? null;

  const lookUntilFound = async (readAt: number | null): Promise<Found | null> => {
    // How many sightings were read for (-1: it reads at once; 0: on the first sighting, or at `readAt`).
    let looked = readAt === null ? -1 : 0;
    let retryAt: number | null = readAt;
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
      const readAt = firstReadAt !== null && firstReadAt > Date.now() ? firstReadAt : null;
      firstReadAt = null;
      const current = new CancellationScope();
      scope = current;
      done = current
        .run(() => lookUntilFound(readAt))
        .then(
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
