/**
 * Ramp refunds: tokens a quote's deposit address received that no payout uses (deposits to an expired
 * quote, the excess of an overpaid execute, transfers other than the executing one), each returned to its
 * sender from the treasury with the exactly-once send; how far each quote's deposit address was scanned;
 * and the fiat an onramp returns through the bank partner (excess, late deposits, a failed delivery).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('quote_refunds')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('quote_id', 'uuid', (c) => c.notNull().references('quotes.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('deposit_tx_hash', 'text', (c) => c.notNull())
    .addColumn('amount', 'numeric(78, 0)', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('tx_hash', 'text')
    .addColumn('tx_serialized', 'text')
    .addColumn('tx_nonce', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint(
      'quote_refunds_reason_check',
      sql`reason in ('quote_expired', 'excess', 'extra_transfer')`,
    )
    .addCheckConstraint('quote_refunds_status_check', sql`status in ('pending', 'sent', 'failed')`)
    .addCheckConstraint('quote_refunds_amount_check', sql`amount > 0`)
    .execute();
  // One refund per incoming transaction and quote: a deposit is never returned twice.
  await db.schema
    .createIndex('quote_refunds_deposit_key')
    .on('quote_refunds')
    .columns(['quote_id', 'deposit_tx_hash'])
    .unique()
    .execute();

  // The next block the deposit address scan starts from (null: from the quote's creation).
  await db.schema.alterTable('quotes').addColumn('deposit_scan_block', 'numeric(20, 0)').execute();

  await db.schema
    .alterTable('onramps')
    .addColumn('refunds', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('onramps').dropColumn('refunds').execute();
  await db.schema.alterTable('quotes').dropColumn('deposit_scan_block').execute();
  await db.schema.dropTable('quote_refunds').execute();
}
