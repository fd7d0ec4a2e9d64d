/** A per-wallet counter that every product write bumps, so a cached product list knows when it is stale. */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('merchant_addresses')
    .addColumn('products_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('merchant_addresses').dropColumn('products_version').execute();
}
