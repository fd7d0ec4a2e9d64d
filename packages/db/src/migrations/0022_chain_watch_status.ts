/**
 * How each chain's watcher is doing, beside where it got to (`chain_watch`): the provider's head when last
 * asked (also by a tick that failed), the newest block whose logs it read, and the failure of its last
 * tick, if it failed. /health and /metrics read it, so a watcher that cannot read is seen at once.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('chain_watch_status')
    .addColumn('chain_id', 'integer', (c) => c.primaryKey())
    .addColumn('head_block', 'numeric(20, 0)')
    .addColumn('head_at', 'timestamptz')
    .addColumn('read_to_block', 'numeric(20, 0)')
    .addColumn('failing_since', 'timestamptz')
    .addColumn('error_kind', 'text')
    .addColumn('error_message', 'text')
    .addColumn('error_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('chain_watch_status').execute();
}
