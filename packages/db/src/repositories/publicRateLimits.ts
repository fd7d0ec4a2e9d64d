/** The public API's per-client request counters, one row per client and minute, shared by every API process. */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.ts';

/** A client's requests in the current minute, counting this one, and when that minute ends. */
export interface PublicRequestCount {
  count: number;
  resetInMs: number;
}

/**
 * Counts one request of `client` in the current minute of the database's clock (one statement; every
 * process agrees on the minute whatever its own clock says).
 */
export async function countPublicRequest(db: Kysely<Database>, client: string): Promise<PublicRequestCount> {
  const row = await db
    .insertInto('public_rate_limits')
    .values({ client, window_start: sql<Date>`date_trunc('minute', now())`, count: 1 })
    .onConflict((oc) =>
      oc
        .columns(['client', 'window_start'])
        .doUpdateSet({ count: sql<number>`public_rate_limits.count + 1` }),
    )
    .returning([
      'count',
      sql<number>`ceil(extract(epoch from window_start + interval '1 minute' - clock_timestamp()) * 1000)::int`.as(
        'reset_in_ms',
      ),
    ])
    .executeTakeFirstOrThrow();
  return { count: row.count, resetInMs: Math.max(0, row.reset_in_ms) };
}

/** Deletes the counters of minutes that are over. */
export async function purgePublicRateLimits(db: Kysely<Database>): Promise<void> {
  await db
    .deleteFrom('public_rate_limits')
    .where('window_start', '<', sql<Date>`date_trunc('minute', now())`)
    .execute();
}
