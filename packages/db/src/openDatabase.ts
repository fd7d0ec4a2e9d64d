/** Opens the database: embedded PGlite under a data directory by default, PostgreSQL with a URL. */
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { acquireDataDirLock } from './dataDirLock.ts';
import { migrateToLatest } from './migrate.ts';
import { pgliteDialect } from './pgliteDialect.ts';
import type { Database } from './schema.ts';

/** Where the data lives. */
export type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize?: number }
  | { kind: 'pglite'; dataDir: string; adminSocket?: string }
  | { kind: 'pglite-memory'; loadDataDir?: Blob };

/** An open database. */
export interface Db {
  kysely: Kysely<Database>;
  kind: 'postgres' | 'pglite';
  /** Round trip to the database, for health checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: a tarball of the data directory (for fast test fixtures). */
  dump?(): Promise<Blob>;
}

/** Opens and migrates the database. */
export async function openDatabase(options: DatabaseOptions, { migrate = true } = {}): Promise<Db> {
  let db: Db;
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // A lost connection must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    db = {
      kysely,
      kind: 'postgres',
      ping: async () => void (await sql`select 1`.execute(kysely)),
      close: () => kysely.destroy(),
    };
  } else {
    let release = () => {};
    let pglite: PGlite;
    if (options.kind === 'pglite') {
      release = acquireDataDirLock(
        options.dataDir,
        options.adminSocket ? { adminSocket: options.adminSocket } : {},
      );
      try {
        pglite = await PGlite.create(join(options.dataDir, 'pgdata'));
      } catch (error) {
        release();
        throw error;
      }
    } else {
      pglite = await PGlite.create(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {});
    }
    const kysely = new Kysely<Database>({ dialect: pgliteDialect(pglite) });
    db = {
      kysely,
      kind: 'pglite',
      ping: async () => void (await sql`select 1`.execute(kysely)),
      close: async () => {
        await kysely.destroy();
        await pglite.close();
        release();
      },
      dump: () => pglite.dumpDataDir('none') as Promise<Blob>,
    };
  }
  if (migrate) {
    try {
      await migrateToLatest(db.kysely as Kysely<unknown>);
    } catch (error) {
      await db.close();
      throw error;
    }
  }
  return db;
}
