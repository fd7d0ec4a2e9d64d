/** A canceled refund keeps why the merchant canceled it, when they said, for the customer's page to show. */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refunds').addColumn('cancel_reason', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refunds').dropColumn('cancel_reason').execute();
}
