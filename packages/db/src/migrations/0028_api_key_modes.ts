/**
 * An API key is `live` or `test`: a test key sees and changes only the records of test networks. Keys made
 * before keep working as live keys, as they did.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('api_keys')
    .addColumn('mode', 'text', (c) => c.notNull().defaultTo('live'))
    .execute();
  await sql`alter table api_keys add constraint api_keys_mode_check check (mode in ('live', 'test'))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('mode').execute();
}
