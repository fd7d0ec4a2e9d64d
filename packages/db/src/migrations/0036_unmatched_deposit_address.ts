/**
 * An unmatched transfer that arrived at a session's deposit address keeps that address and its session (it
 * is listed under the receiving address the forwarder sweeps to). Deposit addresses stay watched for
 * days after their sessions opened, so that late money there is recorded and swept: an index answers that.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('unmatched_transfers')
    .addColumn('deposit_address', 'text')
    .addColumn('deposit_session_id', 'uuid')
    .execute();
  await sql`create index checkout_sessions_deposit_created_idx on checkout_sessions (chain_id, created_at)
    where deposit_address is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index checkout_sessions_deposit_created_idx`.execute(db);
  await db.schema
    .alterTable('unmatched_transfers')
    .dropColumn('deposit_session_id')
    .dropColumn('deposit_address')
    .execute();
}
