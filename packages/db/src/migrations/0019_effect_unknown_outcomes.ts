/**
 * How many times an effect's outcome was unknown (an e-mail the server took without a final answer): the
 * effect is made again at most once after such an outcome, so the count outlives a failed retry's release.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('effect_claims')
    .addColumn('unknown_outcomes', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('effect_claims').dropColumn('unknown_outcomes').execute();
}
