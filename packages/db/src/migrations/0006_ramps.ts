/** Ramps: onramps, quotes (with the deposit-index sequence) and offramps. */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('onramps')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_message', 'text')
    .addColumn('crypto_currency', 'text', (c) => c.notNull())
    .addColumn('crypto_rails', 'text', (c) => c.notNull())
    .addColumn('chain_id', 'integer', (c) => c.notNull())
    .addColumn('token_address', 'text', (c) => c.notNull())
    .addColumn('token_decimals', 'integer', (c) => c.notNull())
    .addColumn('token_no_return', 'boolean', (c) => c.notNull())
    .addColumn('destination_amount', 'numeric(20, 2)', (c) => c.notNull())
    .addColumn('fee', 'numeric(20, 2)', (c) => c.notNull())
    .addColumn('deposit_amount', 'numeric(20, 2)', (c) => c.notNull())
    .addColumn('received_amount', 'numeric(20, 2)', (c) => c.notNull())
    .addColumn('deposits', 'jsonb', (c) => c.notNull())
    .addColumn('destination_address', 'text', (c) => c.notNull())
    .addColumn('fiat_currency', 'text', (c) => c.notNull())
    .addColumn('fiat_rails', 'text', (c) => c.notNull())
    .addColumn('deposit_message', 'text', (c) => c.notNull().unique())
    .addColumn('tx_hash', 'text')
    .addColumn('tx_serialized', 'text')
    .addColumn('tx_nonce', 'integer')
    .addColumn('status_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint(
      'onramps_status_check',
      sql`status in ('initiated', 'held', 'funds_received', 'sending_crypto', 'crypto_sent', 'failed', 'expired')`,
    )
    .execute();
  await db.schema
    .createIndex('onramps_user_created_idx')
    .on('onramps')
    .columns(['user_id', 'created_at', 'id'])
    .execute();

  // Deposit addresses are HD indexes; a sequence never hands the same one out twice, even after a rollback.
  await sql`create sequence quote_deposit_index_seq minvalue 0 start with 0`.execute(db);
  await db.schema
    .createTable('quotes')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('deposit_token', 'text', (c) => c.notNull())
    .addColumn('deposit_token_chain', 'text', (c) => c.notNull())
    .addColumn('chain_id', 'integer', (c) => c.notNull())
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('token_address', 'text', (c) => c.notNull())
    .addColumn('token_decimals', 'integer', (c) => c.notNull())
    .addColumn('deposit_index', 'integer', (c) => c.notNull().unique())
    .addColumn('deposit_address', 'text', (c) => c.notNull())
    .addColumn('crypto_transfer', 'jsonb')
    .addColumn('received_amount', 'numeric(78, 0)')
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('quotes_user_created_idx')
    .on('quotes')
    .columns(['user_id', 'created_at'])
    .execute();
  // One transaction executes one quote: a hash can fund a quote only once.
  await sql`create unique index quotes_tx_idx on quotes ((crypto_transfer->>'tx_id')) where crypto_transfer is not null`.execute(
    db,
  );

  await db.schema
    .createTable('offramps')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('quote_id', 'uuid', (c) => c.notNull().references('quotes.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id').onDelete('cascade'))
    .addColumn('payment_detail_id', 'uuid', (c) => c.notNull().references('payment_details.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_message', 'text')
    .addColumn('destination_amount', 'numeric(20, 2)', (c) => c.notNull())
    .addColumn('destination_currency', 'text', (c) => c.notNull())
    .addColumn('rails', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('rate', 'numeric', (c) => c.notNull())
    .addColumn('fee', 'numeric(20, 2)', (c) => c.notNull())
    .addColumn('token_amount', 'numeric(78, 0)', (c) => c.notNull())
    .addColumn('token_fee', 'numeric(78, 0)', (c) => c.notNull())
    .addColumn('supporting_document_url', 'text')
    .addColumn('metadata', 'jsonb')
    .addColumn('status_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint(
      'offramps_status_check',
      sql`status in ('initiated', 'pending_internal_assessment', 'sending_fiat', 'fiat_sent', 'bounced', 'failed')`,
    )
    .execute();
  await db.schema
    .createIndex('offramps_quote_idx')
    .on('offramps')
    .columns(['quote_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('offramps_user_idx')
    .on('offramps')
    .columns(['user_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('offramps').execute();
  await db.schema.dropTable('quotes').execute();
  await sql`drop sequence quote_deposit_index_seq`.execute(db);
  await db.schema.dropTable('onramps').execute();
}
