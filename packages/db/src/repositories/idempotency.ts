/**
 * Stored responses of POSTs made with an Idempotency-Key, so a retry replays instead of repeating. A response
 * may hold what must never sit in the clear (a user's tax id, bank account numbers, a new webhook secret), so
 * it is stored encrypted under `SECRET_KEY` and opened only to be replayed.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.ts';
import type { SecretBox } from '../secretBox.ts';

/** What to do with a request carrying an idempotency key. */
export type IdempotencyClaim =
  | { state: 'claimed' }
  | { state: 'replay'; status: number; body: string }
  | { state: 'in_progress' }
  | { state: 'mismatch' };

/** Claims `key` for this request, or reports the earlier request that used it. */
export async function claimIdempotencyKey(
  db: Kysely<Database>,
  secrets: SecretBox,
  input: { scope: string; key: string; method: string; path: string; requestHash: string },
): Promise<IdempotencyClaim> {
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({
      scope: input.scope,
      key: input.key,
      method: input.method,
      path: input.path,
      request_hash: input.requestHash,
      created_at: new Date(),
    })
    .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
    .executeTakeFirst();
  if ((inserted.numInsertedOrUpdatedRows ?? 0n) > 0n) return { state: 'claimed' };
  const existing = await db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('scope', '=', input.scope)
    .where('key', '=', input.key)
    .executeTakeFirst();
  if (!existing) return claimIdempotencyKey(db, secrets, input);
  if (
    existing.method !== input.method ||
    existing.path !== input.path ||
    existing.request_hash !== input.requestHash
  ) {
    return { state: 'mismatch' };
  }
  if (existing.response_status === null || existing.response_body === null) return { state: 'in_progress' };
  return { state: 'replay', status: existing.response_status, body: secrets.open(existing.response_body) };
}

/** Stores the response of a claimed key, encrypted. */
export async function completeIdempotencyKey(
  db: Kysely<Database>,
  secrets: SecretBox,
  input: { scope: string; key: string; status: number; body: string },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ response_status: input.status, response_body: secrets.seal(input.body) })
    .where('scope', '=', input.scope)
    .where('key', '=', input.key)
    .execute();
}

/** Gives a claimed key back while it has no response (its request failed), so the client may retry it. */
export async function releaseIdempotencyKey(
  db: Kysely<Database>,
  input: { scope: string; key: string },
): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('scope', '=', input.scope)
    .where('key', '=', input.key)
    .where('response_status', 'is', null)
    .execute();
}

/** Deletes records older than `maxAgeHours` (at least 24 h are kept). */
export async function purgeIdempotencyKeys(db: Kysely<Database>, maxAgeHours = 48): Promise<number> {
  const hours = Math.max(24, maxAgeHours);
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', sql<Date>`now() - make_interval(hours => ${hours})`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
