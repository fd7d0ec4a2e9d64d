/**
 * One watcher per chain follows new blocks once for every open checkout: where it got to (`chain_watch`),
 * the receiving addresses it covers and from which block (`chain_watch_addresses`), and every token
 * transfer into them it read (`chain_transfers`), which the sessions' matching reads instead of the chain.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('chain_watch')
    .addColumn('chain_id', 'integer', (c) => c.primaryKey())
    .addColumn('next_block', 'numeric(20, 0)', (c) => c.notNull())
    .addColumn('last_block_hash', 'text')
    .addColumn('head_block', 'numeric(20, 0)', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('chain_watch_addresses')
    .addColumn('chain_id', 'integer', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('covered_from', 'numeric(20, 0)', (c) => c.notNull())
    .addPrimaryKeyConstraint('chain_watch_addresses_pkey', ['chain_id', 'address'])
    .execute();
  await db.schema
    .createTable('chain_transfers')
    .addColumn('chain_id', 'integer', (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('log_index', 'integer', (c) => c.notNull())
    .addColumn('block_number', 'numeric(20, 0)', (c) => c.notNull())
    .addColumn('block_hash', 'text', (c) => c.notNull())
    .addColumn('token_address', 'text', (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('tx_from', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('amount', 'numeric(78, 0)', (c) => c.notNull())
    .addColumn('seen_at', 'timestamptz', (c) => c.notNull())
    .addColumn('handed_over', 'boolean', (c) => c.notNull().defaultTo(false))
    .addPrimaryKeyConstraint('chain_transfers_pkey', ['chain_id', 'tx_hash', 'log_index'])
    .execute();
  await db.schema
    .createIndex('chain_transfers_to_idx')
    .on('chain_transfers')
    .columns(['chain_id', 'to_address', 'block_number'])
    .execute();
  await sql`create index chain_transfers_pending_idx on chain_transfers (chain_id) where not handed_over`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('chain_transfers').execute();
  await db.schema.dropTable('chain_watch_addresses').execute();
  await db.schema.dropTable('chain_watch').execute();
}
