import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { describe, expect, it } from 'vitest';
import { migrations } from '../migrate.ts';
import { openTestDatabase, type TestDatabase, testDatabaseUnavailable } from '../testDatabase.ts';

/** The columns and primary key of `checkout_transfer_sightings`, or undefined without the table. */
async function sightingsTable(db: TestDatabase) {
  const columns = await sql<{ column_name: string; data_type: string; is_nullable: string }>`
    select column_name, data_type, is_nullable from information_schema.columns
    where table_name = 'checkout_transfer_sightings' order by ordinal_position`.execute(db.kysely);
  if (columns.rows.length === 0) return undefined;
  const key = await sql<{ constraint_name: string; column_name: string }>`
    select tc.constraint_name, kcu.column_name from information_schema.table_constraints tc
    join information_schema.key_column_usage kcu using (constraint_name, table_name)
    where tc.table_name = 'checkout_transfer_sightings' and tc.constraint_type = 'PRIMARY KEY'
    order by kcu.ordinal_position`.execute(db.kysely);
  return { columns: columns.rows, key: key.rows };
}

describe.skipIf(testDatabaseUnavailable())('0020_unmatched_transfers', () => {
  it('drops checkout_transfer_sightings, and its down makes the table again as 0009 made it', async () => {
    const db = await openTestDatabase({ migrate: false });
    try {
      const migrator = new Migrator({ db: db.kysely, provider: { getMigrations: async () => migrations } });
      expect((await migrator.migrateTo('0019_effect_unknown_outcomes')).error).toBeUndefined();
      const made = await sightingsTable(db);
      expect(made?.key).toEqual([
        { constraint_name: 'checkout_transfer_sightings_pkey', column_name: 'chain_id' },
        { constraint_name: 'checkout_transfer_sightings_pkey', column_name: 'tx_hash' },
      ]);

      expect((await migrator.migrateTo('0020_unmatched_transfers')).error).toBeUndefined();
      expect(await sightingsTable(db)).toBeUndefined();

      expect((await migrator.migrateTo('0019_effect_unknown_outcomes')).error).toBeUndefined();
      expect(await sightingsTable(db)).toEqual(made);
    } finally {
      await db.close();
    }
  });
});
