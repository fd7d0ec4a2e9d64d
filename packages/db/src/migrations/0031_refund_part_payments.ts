/**
 * A refund paid with another amount stays in view: every transfer from its receiving address to its refund
 * address in its token, once it is ready to pay, is recorded against it (once: unique on chain, hash and log
 * index), and the refund keeps how much they add up to. A part payment leaves the rest due; a payment above
 * the amount is named as overpaid.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('refunds')
    .addColumn('paid_amount', 'numeric(78, 0)', (c) => c.notNull().defaultTo('0'))
    .execute();
  await db.schema
    .createTable('refund_transfers')
    .addColumn('chain_id', 'integer', (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('log_index', 'integer', (c) => c.notNull())
    .addColumn('refund_id', 'uuid', (c) => c.notNull().references('refunds.id'))
    .addColumn('block_number', 'numeric(20, 0)', (c) => c.notNull())
    .addColumn('amount', 'numeric(78, 0)', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('refund_transfers_pkey', ['chain_id', 'tx_hash', 'log_index'])
    .execute();
  await sql`create index refund_transfers_refund_idx on refund_transfers (refund_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('refund_transfers').execute();
  await db.schema.alterTable('refunds').dropColumn('paid_amount').execute();
}
