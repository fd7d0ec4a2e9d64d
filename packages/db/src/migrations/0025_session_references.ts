/**
 * A checkout session carries a reference of its own (32 random bytes) that the transactions paying it
 * append to their calldata, and the hash of the secret its opener was given; a recorded transfer keeps its
 * transaction's input, where the watcher looks for those references.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('checkout_sessions').addColumn('reference', 'text').execute();
  // Two random UUIDs without their dashes and version digits' meaning: 64 hex digits no one can guess.
  await sql`update checkout_sessions
    set reference = replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')`.execute(db);
  await sql`alter table checkout_sessions alter column reference set not null`.execute(db);
  await sql`alter table checkout_sessions add constraint checkout_sessions_reference_check
    check (reference ~ '^[0-9a-f]{64}$')`.execute(db);
  await sql`create unique index checkout_sessions_reference_idx on checkout_sessions (reference)`.execute(db);
  await db.schema.alterTable('checkout_sessions').addColumn('client_secret_hash', 'text').execute();
  await db.schema
    .alterTable('chain_transfers')
    .addColumn('tx_input', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('chain_transfers').dropColumn('tx_input').execute();
  await db.schema.alterTable('checkout_sessions').dropColumn('client_secret_hash').execute();
  await sql`drop index checkout_sessions_reference_idx`.execute(db);
  await db.schema.alterTable('checkout_sessions').dropColumn('reference').execute();
}
