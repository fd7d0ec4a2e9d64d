/**
 * Makes an effect that leaves the service (an e-mail, a webhook request) at most once per claim, from
 * inside an activity: the claim is taken in the database before acting, and a retried activity or
 * workflow task that finds it done gets the first result back instead of acting again. Activity code
 * only (it reaches the database); see `claimEffect` in @checkout/db for the claim itself.
 */
import { claimEffect, completeEffect, type Db, noteUnknownOutcome, releaseEffect } from '@checkout/db';
import { Context, log } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';

/** Error type of an effect still held by another live attempt after this one looked a while: retried soon. */
const effectInProgress = 'effect_in_progress';
/** Error type of an effect whose outcome is unknown: retried once, after the pause the act asked for. */
const effectOutcomeUnknown = 'effect_outcome_unknown';

/** What {@link performOnce} did. */
export type PerformedEffect<T> =
  | { performed: true; result: T }
  | { performed: false; result: T }
  /** Given up after its one retry also ended with its outcome unknown: it may have been made once or twice. */
  | { performed: false; outcomeUnknown: true };

/**
 * An act's failure that leaves unknown whether the effect was made (an SMTP server that took the message and
 * dropped the connection before its final answer): `outcomeUnknown: true`, and the pause before the retry.
 */
interface OutcomeUnknown {
  outcomeUnknown: true;
  retryDelayMs?: number;
  message: string;
}

const isOutcomeUnknown = (error: unknown): error is OutcomeUnknown =>
  (error as { outcomeUnknown?: unknown } | null)?.outcomeUnknown === true;

const defaultUnknownRetryMs = 60_000;

/** How long an attempt looks again at a claim another attempt holds before it fails to be retried. */
const busyLookMs = 10_000;
/** The longest pause between two looks at a held claim, within an attempt and between attempts. */
const busyPauseCapMs = { within: 2_000, between: 30_000 };

/**
 * Claims `key`, or finds it done; while another live attempt holds it, looks again after a pause that
 * grows from 100 ms (the holder usually finishes within it), never past the holder's lease: the effect is
 * known done as soon as it is. After {@link busyLookMs} still held (a slow receiver, an unknown outcome's
 * pause), the attempt fails and its retry looks again within {@link busyPauseCapMs}.between.
 */
async function claimOrWait<T>(db: Db, key: string, leaseMs: number) {
  const context = Context.current();
  const lookUntil = Date.now() + busyLookMs;
  for (let pauseMs = 100; ; pauseMs = Math.min(pauseMs * 2, busyPauseCapMs.within)) {
    const claim = await claimEffect<T>(db.kysely, key, leaseMs);
    if (claim.state !== 'busy') return claim;
    const leftMs = Math.max(claim.until.getTime() - Date.now(), 100);
    log.debug('the effect is being made by another attempt; looking again', { key, pauseMs });
    if (Date.now() + pauseMs > lookUntil) {
      throw ApplicationFailure.create({
        message: `${key} is being made by another attempt until ${claim.until.toISOString()}`,
        type: effectInProgress,
        nextRetryDelay: Math.min(leftMs, busyPauseCapMs.between),
      });
    }
    await context.sleep(Math.min(pauseMs, leftMs));
  }
}

/**
 * Runs `act` once for `key`: claims it for `leaseMs` (longer than `act` can take), records the result, and
 * returns it. When the key is already done, returns the recorded result without acting; while another attempt
 * holds it, waits for it in short looks ({@link claimOrWait}), not for the holder's whole lease. When `act`
 * throws, the claim is given back (nothing left the service) and the error goes to the caller's retry.
 * When `act` cannot tell whether its effect was made, the claim is held for the pause it names and the
 * attempt fails so that the caller's retry makes the effect once more; a second unknown outcome ends the
 * effect (done, `outcomeUnknown`): an unknown outcome is retried at most once, never on every retry.
 */
export async function performOnce<T>(
  db: Db,
  key: string,
  leaseMs: number,
  act: () => Promise<T>,
): Promise<PerformedEffect<T>> {
  const claim = await claimOrWait<T>(db, key, leaseMs);
  if (claim.state === 'done') {
    return claim.outcomeUnknown
      ? { performed: false, outcomeUnknown: true }
      : { performed: false, result: claim.result };
  }
  let result: T;
  try {
    result = await act();
  } catch (error) {
    if (!isOutcomeUnknown(error)) {
      await releaseEffect(db.kysely, key, claim.token).catch(() => undefined);
      throw error;
    }
    const pauseMs = error.retryDelayMs ?? defaultUnknownRetryMs;
    const unknown = await noteUnknownOutcome(db.kysely, key, claim.token, new Date(Date.now() + pauseMs));
    if (unknown >= 2) {
      await completeEffect(db.kysely, key, claim.token, null);
      log.warn('the outcome of an effect stayed unknown after its one retry; it is not made again', {
        key,
        error: error.message,
      });
      return { performed: false, outcomeUnknown: true };
    }
    throw ApplicationFailure.create({
      message: `${key}: ${error.message}; made once more in ${pauseMs} ms`,
      type: effectOutcomeUnknown,
      nextRetryDelay: pauseMs,
    });
  }
  await completeEffect(db.kysely, key, claim.token, result);
  return { performed: true, result };
}
