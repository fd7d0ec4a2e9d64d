/**
 * Money that fits no order: every transfer into a receiving address that no session took is recorded once
 * (`unmatched_transfers`, unique on chain, hash and log index) with the sessions it arrived near, and its
 * hash is claimed for no session (`checkout_transactions.session_id` null) so no session takes it later.
 * A shopper's attempt can be closed (`closed`), and the chain's watcher keeps reading an address for the
 * grace after its sessions ended, where double and late payments land. A transfer's claim delay counts
 * from when the watcher recorded it, so the first sightings a checkout kept are dropped.
 */
import { type Kysely, sql } from 'kysely';
import { createTransferSightings } from './0009_effects.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A transfer's claim delay now counts from when the watcher recorded it (chain_transfers.seen_at).
  await db.schema.dropTable('checkout_transfer_sightings').execute();
  await db.schema
    .alterTable('checkout_transactions')
    .alterColumn('session_id', (c) => c.dropNotNull())
    .execute();
  await sql`create index chain_transfers_seen_idx on chain_transfers (chain_id, seen_at)`.execute(db);
  await sql`create index checkout_sessions_ended_idx on checkout_sessions (chain_id, updated_at)
    where status in ('resolved', 'failed', 'closed')`.execute(db);
  await db.schema
    .createTable('unmatched_transfers')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('merchant_id', 'uuid', (c) => c.notNull())
    .addColumn('product_id', 'uuid')
    .addColumn('chain_id', 'integer', (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('log_index', 'integer', (c) => c.notNull())
    .addColumn('block_number', 'numeric(20, 0)', (c) => c.notNull())
    .addColumn('token_address', 'text', (c) => c.notNull())
    .addColumn('token', 'jsonb', (c) => c.notNull())
    .addColumn('amount', 'numeric(78, 0)', (c) => c.notNull())
    .addColumn('sender_address', 'text', (c) => c.notNull())
    .addColumn('receiving_address', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(sql`kind in ('duplicate', 'closed_attempt', 'wrong_amount', 'unexpected')`),
    )
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('open', 'attached', 'refunded', 'dismissed')`),
    )
    .addColumn('resolved_payment_id', 'uuid')
    .addColumn('expected_payment_id', 'uuid')
    .addColumn('note', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('unmatched_transfers_transfer_key', ['chain_id', 'tx_hash', 'log_index'])
    .execute();
  await sql`create index unmatched_transfers_merchant_idx on unmatched_transfers (merchant_id, created_at)`.execute(
    db,
  );
  await db.schema
    .createTable('unmatched_transfer_sessions')
    .addColumn('unmatched_transfer_id', 'uuid', (c) =>
      c.notNull().references('unmatched_transfers.id').onDelete('cascade'),
    )
    .addColumn('session_id', 'uuid', (c) => c.notNull())
    .addPrimaryKeyConstraint('unmatched_transfer_sessions_pkey', ['unmatched_transfer_id', 'session_id'])
    .execute();
  await sql`create index unmatched_transfer_sessions_session_idx on unmatched_transfer_sessions (session_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('unmatched_transfer_sessions').execute();
  await db.schema.dropTable('unmatched_transfers').execute();
  await sql`drop index checkout_sessions_ended_idx`.execute(db);
  await sql`drop index chain_transfers_seen_idx`.execute(db);
  await sql`delete from checkout_transactions where session_id is null`.execute(db);
  await db.schema
    .alterTable('checkout_transactions')
    .alterColumn('session_id', (c) => c.setNotNull())
    .execute();
  await createTransferSightings(db);
}
