/** The shopper's language on a checkout session (a BCP 47 tag the element sends), for their receipt. */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('checkout_sessions').addColumn('locale', 'text').execute();
}
