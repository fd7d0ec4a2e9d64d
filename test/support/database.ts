/** A fresh, migrated database for one test file, of the kind the project runs against. */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { type Db, openDatabase } from '@checkout/db';
import pg from 'pg';
import { inject } from 'vitest';

/** True when this run's database is PostgreSQL and it cannot be reached (outside CI only). */
export function databaseUnavailable(): boolean {
  return inject('databaseKind') === 'postgres' && inject('postgresUnavailable') !== '';
}

/** A test database: its URL when it is PostgreSQL. */
export type TestDatabase = Db & { url?: string };

/** A fresh database; `close()` also drops it (PostgreSQL). */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (inject('databaseKind') === 'pglite') {
    const dump = await readFile(inject('pgliteDumpPath'));
    return openDatabase({ kind: 'pglite-memory', loadDataDir: new Blob([dump]) });
  }
  const admin = inject('postgresAdminUrl');
  const name = `checkout_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const db = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 5 });
  return {
    ...db,
    url: url.toString(),
    close: async () => {
      await db.close();
      const drop = new pg.Client({ connectionString: admin });
      await drop.connect();
      await drop.query(`drop database if exists ${name} with (force)`);
      await drop.end();
    },
  };
}
