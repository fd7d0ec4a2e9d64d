/** Merchants, keys, products, resolved payments and idempotency records. */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('merchants')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('name', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('merchant_addresses')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id').onDelete('cascade'))
    .addColumn('address', 'text', (c) => c.notNull().unique())
    .addColumn('verified', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id').onDelete('cascade'))
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('products')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id'))
    .addColumn('address_id', 'uuid', (c) => c.notNull().references('merchant_addresses.id'))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('send_email', 'boolean', (c) => c.notNull())
    .addColumn('email_body', 'text', (c) => c.notNull())
    .addColumn('send_webhook', 'boolean', (c) => c.notNull())
    .addColumn('webhook_url', 'text')
    .addColumn('success_url', 'text', (c) => c.notNull())
    .addColumn('failure_url', 'text', (c) => c.notNull())
    .addColumn('active', 'boolean', (c) => c.notNull())
    .addColumn('tax_rate', 'numeric(9, 4)', (c) => c.notNull())
    .addColumn('swappable', 'boolean', (c) => c.notNull())
    .addColumn('open_amount', 'boolean', (c) => c.notNull())
    .addColumn('expires_in_minutes', 'integer')
    .addColumn('custom_fields', 'jsonb', (c) => c.notNull())
    .addColumn('token_blockchain', 'text', (c) => c.notNull())
    .addColumn('token_network', 'text', (c) => c.notNull())
    .addColumn('token_address', 'text', (c) => c.notNull())
    .addColumn('token_symbol', 'text', (c) => c.notNull())
    .addColumn('token_name', 'text', (c) => c.notNull())
    .addColumn('token_decimals', 'integer', (c) => c.notNull())
    .addColumn('chain_id', 'integer', (c) => c.notNull())
    .addColumn('secret_ciphertext', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('products_address_created_idx')
    .on('products')
    .columns(['address_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('resolved_payments')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('product_id', 'uuid', (c) => c.notNull().references('products.id'))
    .addColumn('expected_payment_id', 'uuid', (c) => c.notNull())
    .addColumn('is_test', 'boolean', (c) => c.notNull())
    .addColumn('dollar_amount', 'numeric(20, 2)', (c) => c.notNull())
    .addColumn('metadata', 'jsonb')
    .addColumn('user_email', 'text', (c) => c.notNull())
    .addColumn('custom_fields', 'jsonb', (c) => c.notNull())
    .addColumn('chain_id', 'integer', (c) => c.notNull())
    .addColumn('expected_token', 'jsonb', (c) => c.notNull())
    .addColumn('received_token', 'jsonb', (c) => c.notNull())
    .addColumn('expected_token_amount', 'numeric(78, 0)', (c) => c.notNull())
    .addColumn('received_token_amount', 'numeric(78, 0)', (c) => c.notNull())
    .addColumn('amount_difference', 'text', (c) => c.notNull())
    .addColumn('receiving_address', 'text', (c) => c.notNull())
    .addColumn('sender_address', 'text', (c) => c.notNull())
    .addColumn('tx_id', 'text', (c) => c.notNull())
    .addColumn('log_index', 'integer', (c) => c.notNull())
    .addColumn('tx_success', 'boolean', (c) => c.notNull())
    .addColumn('tx_failure', 'boolean', (c) => c.notNull())
    .addColumn('swapped', 'boolean', (c) => c.notNull())
    .addColumn('late', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('resolved_payments_chain_tx_log_key', ['chain_id', 'tx_id', 'log_index'])
    .execute();
  await db.schema
    .createIndex('resolved_payments_product_created_idx')
    .on('resolved_payments')
    .columns(['product_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['scope', 'key'])
    .execute();
  await db.schema
    .createIndex('idempotency_keys_created_idx')
    .on('idempotency_keys')
    .column('created_at')
    .execute();
  await sql`select 1`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'idempotency_keys',
    'resolved_payments',
    'products',
    'api_keys',
    'merchant_addresses',
    'merchants',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
