/**
 * Claims on effects that leave the service (an e-mail, a webhook attempt): the one place that makes a
 * retried activity or workflow task safe to run again. A sender claims the effect's key before it acts,
 * acts once per claim, and marks the claim done with what came of it; a retry that finds the claim done
 * gets that result back and sends nothing. A claim still held by another attempt is waited for; a claim
 * whose holder died (its lease ran out with nothing recorded) is taken over, since nothing tells whether
 * the message left before the crash: only then can a receiver see it twice, with the same message id. A
 * send whose outcome is unknown (the server took the message and never answered) keeps its claim until its
 * one retry is due ({@link noteUnknownOutcome}); after a second unknown outcome the effect is done.
 */
import { randomUUID } from 'node:crypto';
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { Database } from '../schema.ts';

/** What claiming an effect found. */
export type EffectClaim<T> =
  /** Act now, then {@link completeEffect} with this token. `tries` > 1: an earlier holder died or failed. */
  | { state: 'claimed'; token: string; tries: number }
  /**
   * Already done: nothing to send; `result` is what the first sender recorded, or null when the effect was
   * given up with its outcome unknown (`outcomeUnknown`).
   */
  | { state: 'done'; result: T; outcomeUnknown: boolean }
  /** Another attempt holds the claim until `until`: wait, then claim again. */
  | { state: 'busy'; until: Date };

/** Claims the effect `key` for `leaseMs`, unless it is done or another live attempt holds it. */
export async function claimEffect<T>(
  db: Kysely<Database>,
  key: string,
  leaseMs: number,
): Promise<EffectClaim<T>> {
  const token = randomUUID();
  const now = new Date();
  const until = new Date(now.getTime() + leaseMs);
  // Insert, or take over a claim whose lease ran out; a done claim or a live lease is left alone.
  const taken = await db
    .insertInto('effect_claims')
    .values({ key, status: 'claimed', token, claimed_until: until, tries: 1, created_at: now })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({ token, claimed_until: until, tries: sql`effect_claims.tries + 1` })
        .where('effect_claims.status', '=', 'claimed')
        .where('effect_claims.claimed_until', '<', now),
    )
    .returning(['token', 'tries'])
    .executeTakeFirst();
  if (taken && taken.token === token) return { state: 'claimed', token, tries: taken.tries };
  const row = await db
    .selectFrom('effect_claims')
    .select(['status', 'result', 'claimed_until', 'unknown_outcomes'])
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  if (row.status === 'done') {
    return { state: 'done', result: row.result as T, outcomeUnknown: row.unknown_outcomes >= 2 };
  }
  return { state: 'busy', until: row.claimed_until };
}

/** The claim `key` while the attempt holding `token` still holds it. */
const held = (key: string, token: string) => (eb: ExpressionBuilder<Database, 'effect_claims'>) =>
  eb.and([eb('key', '=', key), eb('token', '=', token), eb('status', '=', 'claimed')]);

/** Marks a claim done with its result; false when the claim was lost (its lease ran out and was taken over). */
export async function completeEffect(
  db: Kysely<Database>,
  key: string,
  token: string,
  result: unknown,
): Promise<boolean> {
  const updated = await db
    .updateTable('effect_claims')
    .set({ status: 'done', result: JSON.stringify(result ?? null), done_at: new Date() })
    .where(held(key, token))
    .executeTakeFirst();
  return (updated.numUpdatedRows ?? 0n) > 0n;
}

/**
 * Gives a claim back without acting (the effect was not made), so the next attempt claims it at once. A
 * claim that saw an unknown outcome stays, its lease ended, so its count of unknown outcomes is kept.
 */
export async function releaseEffect(db: Kysely<Database>, key: string, token: string): Promise<void> {
  const kept = await db
    .updateTable('effect_claims')
    .set({ claimed_until: new Date(0) })
    .where(held(key, token))
    .where('unknown_outcomes', '>', 0)
    .executeTakeFirst();
  if ((kept.numUpdatedRows ?? 0n) > 0n) return;
  await db.deleteFrom('effect_claims').where(held(key, token)).execute();
}

/**
 * Notes that the claim's effect may or may not have been made, and holds the claim until `retryAt`, when
 * the one retry may take it over. Returns how many outcomes of the effect were unknown, this one included.
 */
export async function noteUnknownOutcome(
  db: Kysely<Database>,
  key: string,
  token: string,
  retryAt: Date,
): Promise<number> {
  const row = await db
    .updateTable('effect_claims')
    .set((eb) => ({ unknown_outcomes: eb('unknown_outcomes', '+', 1), claimed_until: retryAt }))
    .where(held(key, token))
    .returning('unknown_outcomes')
    .executeTakeFirst();
  // A claim lost meanwhile (taken over after its lease) counts as the worst case: the retry is spent.
  return row?.unknown_outcomes ?? Number.POSITIVE_INFINITY;
}
