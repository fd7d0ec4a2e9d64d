/**
 * An unmatched transfer remembers the hash of the block that holds it, so a reorganisation that drops or
 * moves that block is noticed, and one whose transaction left the chain is `reversed`.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('unmatched_transfers').addColumn('block_hash', 'text').execute();
  await sql`update unmatched_transfers u set block_hash = t.block_hash from chain_transfers t
    where t.chain_id = u.chain_id and t.tx_hash = u.tx_hash and t.log_index = u.log_index`.execute(db);
  await sql`alter table unmatched_transfers drop constraint unmatched_transfers_status_check`.execute(db);
  await sql`alter table unmatched_transfers add constraint unmatched_transfers_status_check
    check (status in ('open', 'attached', 'refunded', 'dismissed', 'reversed'))`.execute(db);
  await sql`create index unmatched_transfers_block_idx on unmatched_transfers (chain_id, block_number)
    where status in ('open', 'refunded', 'reversed')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index unmatched_transfers_block_idx`.execute(db);
  await sql`alter table unmatched_transfers drop constraint unmatched_transfers_status_check`.execute(db);
  await sql`alter table unmatched_transfers add constraint unmatched_transfers_status_check
    check (status in ('open', 'attached', 'refunded', 'dismissed'))`.execute(db);
  await db.schema.alterTable('unmatched_transfers').dropColumn('block_hash').execute();
}
