/**
 * The closed-tab look (workflow code): while no hash is known, the checkout looks for its payment among the
 * transfers the chain's watcher records — once when it starts (what was recorded before), then on every
 * sighting, when a transfer's claim delay ends, and at the window's end. It reads the database only.
 */
import { CancellationScope, condition, isCancellation } from '@temporalio/workflow';
import { local } from './proxies.ts';
import type { CheckoutRun } from './run.ts';
import type { CheckoutSessionInput } from './shared.ts';

/** A look that can be started and stopped; `found` is undefined while it runs, a hash, or null at its end. */
export interface Look {
  start(): void;
  stop(): Promise<void>;
  /** Ends the look for good (its window is over): `found` becomes null. */
  finish(): void;
  readonly found: string | null | undefined;
}

/** Builds the checkout's look over its input and run state. */
export function createLook(input: CheckoutSessionInput, run: CheckoutRun): Look {
  let found: string | null | undefined;
  let scope: CancellationScope | undefined;
  let done: Promise<void> = Promise.resolve();

  const lookUntilFound = async (): Promise<string | null> => {
    let looked = -1;
    let retryAt: number | null = null;
    for (;;) {
      const deadline = Math.min(retryAt ?? input.scanUntil, input.scanUntil);
      await condition(() => run.sightings !== looked, Math.max(deadline - Date.now(), 1));
      looked = run.sightings;
      const match = await local.matchPayment({
        sessionId: input.sessionId,
        chainId: input.chainId,
        exclude: [...run.rejected],
      });
      if (match.txHash) return match.txHash;
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
        (hash) => {
          found = hash;
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
