/**
 * A resolved payment remembers the block that holds its transaction (number and hash), so a reorganisation
 * that drops or moves that block is noticed, and when it was reversed (its transaction left the chain).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('resolved_payments')
    .addColumn('block_number', 'numeric(20, 0)')
    .addColumn('block_hash', 'text')
    .addColumn('reversed_at', 'timestamptz')
    .execute();
  await sql`create index resolved_payments_block_idx on resolved_payments (chain_id, block_number)
    where block_number is not null and reversed_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index resolved_payments_block_idx`.execute(db);
  await db.schema
    .alterTable('resolved_payments')
    .dropColumn('reversed_at')
    .dropColumn('block_hash')
    .dropColumn('block_number')
    .execute();
}
