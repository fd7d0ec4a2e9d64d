/**
 * Makes an effect that leaves the service (an e-mail, a webhook request) at most once per claim, from
 * inside an activity: the claim is taken in the database before acting, and a retried activity or
 * workflow task that finds it done gets the first result back instead of acting again. Activity code
 * only (it reaches the database); see `claimEffect` in @checkout/db for the claim itself.
 */
import { claimEffect, completeEffect, type Db, releaseEffect } from '@checkout/db';
import { ApplicationFailure } from '@temporalio/common';

/** Error type of an effect held by another live attempt: retried after the holder's lease. */
export const effectInProgress = 'EffectInProgress';

/** What {@link performOnce} did. */
export type PerformedEffect<T> = { performed: true; result: T } | { performed: false; result: T };

/**
 * Runs `act` once for `key`: claims it for `leaseMs` (longer than `act` can take), records the result, and
 * returns it. When the key is already done, returns the recorded result without acting. When `act`
 * throws, the claim is given back (nothing left the service) and the error goes to the caller's retry.
 */
export async function performOnce<T>(
  db: Db,
  key: string,
  leaseMs: number,
  act: () => Promise<T>,
): Promise<PerformedEffect<T>> {
  const claim = await claimEffect<T>(db.kysely, key, leaseMs);
  if (claim.state === 'done') return { performed: false, result: claim.result };
  if (claim.state === 'busy') {
    throw ApplicationFailure.create({
      message: `${key} is being made by another attempt until ${claim.until.toISOString()}`,
      type: effectInProgress,
      nextRetryDelay: Math.max(claim.until.getTime() - Date.now(), 100),
    });
  }
  let result: T;
  try {
    result = await act();
  } catch (error) {
    await releaseEffect(db.kysely, key, claim.token).catch(() => undefined);
    throw error;
  }
  await completeEffect(db.kysely, key, claim.token, result);
  return { performed: true, result };
}
