/** Webhook signing secrets, deliveries (the exact bytes sent) and every attempt made for them. */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_secrets')
    .addColumn('merchant_id', 'uuid', (c) => c.primaryKey().references('merchants.id').onDelete('cascade'))
    .addColumn('secret_ciphertext', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('rotated_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id').onDelete('cascade'))
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('product_id', 'uuid', (c) => c.references('products.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('redelivery_of', 'uuid', (c) => c.references('webhook_deliveries.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('delivered_at', 'timestamptz')
    .addCheckConstraint(
      'webhook_deliveries_status_check',
      sql`status in ('pending', 'delivering', 'succeeded', 'failed')`,
    )
    .execute();
  // The first delivery of an event to a URL happens once; redeliveries are extra rows linked to it.
  await db.schema
    .createIndex('webhook_deliveries_first_key')
    .on('webhook_deliveries')
    .columns(['event_type', 'subject_id', 'url'])
    .unique()
    .where(sql.ref('redelivery_of'), 'is', null)
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_product_created_idx')
    .on('webhook_deliveries')
    .columns(['product_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_merchant_created_idx')
    .on('webhook_deliveries')
    .columns(['merchant_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_redelivery_of_idx')
    .on('webhook_deliveries')
    .column('redelivery_of')
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('delivery_id', 'uuid', (c) =>
      c.notNull().references('webhook_deliveries.id').onDelete('cascade'),
    )
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('response_snippet', 'text')
    .addUniqueConstraint('webhook_attempts_delivery_attempt_key', ['delivery_id', 'attempt'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['webhook_attempts', 'webhook_deliveries', 'webhook_secrets']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
