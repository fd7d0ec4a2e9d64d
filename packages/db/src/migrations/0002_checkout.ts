/** Expected payments, checkout sessions and the transactions submitted to them. */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('expected_payments')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id'))
    .addColumn('product_id', 'uuid', (c) => c.notNull().references('products.id'))
    .addColumn('dollar_amount', 'numeric(20, 2)', (c) => c.notNull())
    .addColumn('metadata', 'jsonb')
    .addColumn('customer_email', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('resolved_payment_id', 'uuid')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('expected_payments_product_idx')
    .on('expected_payments')
    .columns(['product_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('checkout_sessions')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('expected_payment_id', 'uuid', (c) => c.notNull().unique().references('expected_payments.id'))
    .addColumn('product_id', 'uuid', (c) => c.notNull().references('products.id'))
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('custom_fields', 'jsonb', (c) => c.notNull())
    .addColumn('sender_address', 'text', (c) => c.notNull())
    .addColumn('payment_token_address', 'text', (c) => c.notNull())
    .addColumn('chain_id', 'integer', (c) => c.notNull())
    .addColumn('expected_token', 'jsonb', (c) => c.notNull())
    .addColumn('expected_token_amount', 'numeric(78, 0)', (c) => c.notNull())
    .addColumn('receiving_address', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('tx_hash', 'text')
    .addColumn('confirmations', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('required_confirmations', 'integer', (c) => c.notNull())
    .addColumn('resolved_payment_id', 'uuid')
    .addColumn('late', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('error', 'text')
    .addColumn('start_block', 'numeric(20, 0)', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('checkout_transactions')
    .addColumn('chain_id', 'integer', (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('session_id', 'uuid', (c) => c.notNull().references('checkout_sessions.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('checkout_transactions_pkey', ['chain_id', 'tx_hash'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['checkout_transactions', 'checkout_sessions', 'expected_payments']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
