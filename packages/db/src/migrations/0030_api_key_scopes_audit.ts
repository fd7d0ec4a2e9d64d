/**
 * API keys gain the scopes they hold (keys made before hold `all`, as they could do everything), when each was
 * last used, and when a rolled key stops working. The audit log records who did what to which record.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('api_keys')
    .addColumn('scopes', 'jsonb', (c) => c.notNull().defaultTo(sql`'["all"]'::jsonb`))
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('api_keys_merchant_created_idx')
    .on('api_keys')
    .columns(['merchant_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    // The order of the log and its cursor: increasing with each row written.
    .addColumn('seq', 'bigint', (c) => c.notNull().generatedAlwaysAsIdentity().unique())
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id').onDelete('cascade'))
    .addColumn('actor_kind', 'text', (c) => c.notNull().check(sql`actor_kind in ('api_key', 'wallet')`))
    // The API key's id or the wallet's checksummed address.
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text')
    .addColumn('detail', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('audit_events_merchant_seq_idx')
    .on('audit_events')
    .columns(['merchant_id', 'seq'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_events').execute();
  await db.schema.dropIndex('api_keys_merchant_created_idx').execute();
  await db.schema
    .alterTable('api_keys')
    .dropColumn('scopes')
    .dropColumn('last_used_at')
    .dropColumn('expires_at')
    .execute();
}
