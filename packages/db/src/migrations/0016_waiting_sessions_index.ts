/**
 * The chain watchers list the sessions still waiting for a payment by chain on every pass: unresolved, and
 * expiring (or, without an expiry, opened) within the scan window. Abandoned sessions stay in the table, so
 * the list is read through these indexes rather than across every session ever opened.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index checkout_sessions_waiting_expiry_idx on checkout_sessions (chain_id, expires_at)
    where resolved_payment_id is null and status in ('awaiting_payment', 'expired')`.execute(db);
  await sql`create index checkout_sessions_waiting_open_idx on checkout_sessions (chain_id, created_at)
    where resolved_payment_id is null and status in ('awaiting_payment', 'expired') and expires_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index checkout_sessions_waiting_open_idx`.execute(db);
  await sql`drop index checkout_sessions_waiting_expiry_idx`.execute(db);
}
