/**
 * Exactly-once effects: a claim row for every message that leaves the service (an e-mail, a webhook
 * attempt) taken before it is sent; when each scanned transfer was first seen (the claim delay survives a
 * restart); and whether a submitted hash reached its checkout workflow (a hash taken while Temporal or
 * the workers were away is handed over later).
 */
import { type Kysely, sql } from 'kysely';

/**
 * When each scanned transfer was first seen, by (chain, hash). Migration 0020 drops the table, and its
 * `down` makes it again with this.
 */
export async function createTransferSightings(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('checkout_transfer_sightings')
    .addColumn('chain_id', 'integer', (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('first_seen_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('checkout_transfer_sightings_pkey', ['chain_id', 'tx_hash'])
    .execute();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('effect_claims')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('token', 'uuid', (c) => c.notNull())
    .addColumn('claimed_until', 'timestamptz', (c) => c.notNull())
    .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('result', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('done_at', 'timestamptz')
    .addCheckConstraint('effect_claims_status_check', sql`status in ('claimed', 'done')`)
    .execute();

  await createTransferSightings(db);

  // Claims made before this column existed were handed over by the request that made them.
  await db.schema
    .alterTable('checkout_transactions')
    .addColumn('handed_over', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
  await db.schema
    .createIndex('checkout_transactions_pending_handover')
    .on('checkout_transactions')
    .column('created_at')
    .where(sql.ref('handed_over'), '=', false)
    .execute();

  // The sweeper looks for deliveries nobody attempted.
  await db.schema
    .createIndex('webhook_deliveries_unattempted')
    .on('webhook_deliveries')
    .column('created_at')
    .where(sql.ref('status'), '=', 'pending')
    .where(sql.ref('attempt_count'), '=', 0)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_unattempted').ifExists().execute();
  await db.schema.dropIndex('checkout_transactions_pending_handover').ifExists().execute();
  await db.schema.alterTable('checkout_transactions').dropColumn('handed_over').execute();
  await db.schema.dropTable('checkout_transfer_sightings').ifExists().execute();
  await db.schema.dropTable('effect_claims').ifExists().execute();
}
