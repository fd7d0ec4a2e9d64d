/**
 * Claims on effects that leave the service (an e-mail, a webhook attempt): the one place that makes a
 * retried activity or workflow task safe to run again. A sender claims the effect's key before it acts,
 * acts once per claim, and marks the claim done with what came of it; a retry that finds the claim done
 * gets that result back and sends nothing. A claim still held by another attempt is waited for; a claim
 * whose holder died (its lease ran out with nothing recorded) is taken over, since nothing tells whether
 * the message left before the crash: only then can a receiver see it twice, with the same message id.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.ts';

/** What claiming an effect found. */
export type EffectClaim<T> =
  /** Act now, then {@link completeEffect} with this token. `tries` > 1: an earlier holder died. */
  | { state: 'claimed'; token: string; tries: number }
  /** Already done: nothing to send; `result` is what the first sender recorded. */
  | { state: 'done'; result: T }
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
        .doUpdateSet({
          token,
          claimed_until: until,
          tries: sql`effect_claims.tries + 1`,
        })
        .where('effect_claims.status', '=', 'claimed')
        .where('effect_claims.claimed_until', '<', now),
    )
    .returning(['token', 'tries'])
    .executeTakeFirst();
  if (taken && taken.token === token) return { state: 'claimed', token, tries: taken.tries };
  const row = await db
    .selectFrom('effect_claims')
    .select(['status', 'result', 'claimed_until'])
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  if (row.status === 'done') return { state: 'done', result: row.result as T };
  return { state: 'busy', until: row.claimed_until };
}

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
    .where('key', '=', key)
    .where('token', '=', token)
    .where('status', '=', 'claimed')
    .executeTakeFirst();
  return (updated.numUpdatedRows ?? 0n) > 0n;
}

/** Gives a claim back without acting (the effect was not made), so the next attempt claims it at once. */
export async function releaseEffect(db: Kysely<Database>, key: string, token: string): Promise<void> {
  await db
    .deleteFrom('effect_claims')
    .where('key', '=', key)
    .where('token', '=', token)
    .where('status', '=', 'claimed')
    .execute();
}

/** The effects recorded as done under keys starting with `prefix` (for tests and operators). */
export async function listDoneEffects(db: Kysely<Database>, prefix: string): Promise<string[]> {
  const rows = await db
    .selectFrom('effect_claims')
    .select('key')
    .where('key', 'like', `${prefix.replace(/[\\%_]/g, '\\$&')}%`)
    .where('status', '=', 'done')
    .orderBy('key')
    .execute();
  return rows.map((r) => r.key);
}
