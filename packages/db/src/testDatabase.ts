/**
 * Test support (tests import it, the service never does): a fresh database of the kind the test project runs
 * against, so one test of SQL runs unchanged on PGlite and on PostgreSQL. `test/setup/database.ts` provides
 * the kind and what each kind needs.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { type Db, openDatabase } from './openDatabase.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseKind: 'pglite' | 'postgres';
    /** A migrated PGlite data directory as a tarball, loaded by each new database ('' for PostgreSQL). */
    pgliteDumpPath: string;
    postgresAdminUrl: string;
    /** Why the PostgreSQL server cannot be reached, outside CI; '' when it can. */
    postgresUnavailable: string;
  }
}

/** A test database: its URL when it is PostgreSQL. */
export type TestDatabase = Db & { url?: string };

/** True when this project's database is PostgreSQL and it cannot be reached (outside CI only). */
export function testDatabaseUnavailable(): boolean {
  return inject('databaseKind') === 'postgres' && inject('postgresUnavailable') !== '';
}

/**
 * A fresh database, migrated unless `migrate` is false: an in-memory PGlite, or a database of its own on the
 * PostgreSQL server that `close()` also drops.
 */
export async function openTestDatabase({
  migrate = true,
  poolSize,
}: {
  migrate?: boolean;
  poolSize?: number;
} = {}): Promise<TestDatabase> {
  if (inject('databaseKind') === 'pglite') {
    const dumpPath = inject('pgliteDumpPath');
    if (!migrate || !dumpPath) return openDatabase({ kind: 'pglite-memory' }, { migrate });
    return openDatabase({ kind: 'pglite-memory', loadDataDir: new Blob([await readFile(dumpPath)]) });
  }
  const admin = inject('postgresAdminUrl');
  const name = `checkout_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const db = await openDatabase(
    { kind: 'postgres', url: url.toString(), ...(poolSize ? { poolSize } : {}) },
    { migrate },
  );
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
