/** Opens the database: embedded PGlite under a data directory by default, PostgreSQL with a URL. */
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { acquireDataDirLock } from './dataDirLock.ts';
import { assertChannelName, type ListenHandlers, listenPostgres } from './listenPostgres.ts';
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
  /**
   * Follows NOTIFY on `channel`: on PostgreSQL through one dedicated connection per call, reconnecting
   * when it is lost; on PGlite inside the process. Resolves with the function that stops listening.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** PGlite only: a tarball of the data directory (for fast test fixtures). */
  dump?(): Promise<Blob>;
}

/** Opens and migrates the database. */
export async function openDatabase(options: DatabaseOptions, { migrate = true } = {}): Promise<Db> {
  let db: Db;
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // A lost connection must not crash the process; the pool replaces it. A client checked out but not yet
    // running its query has no listener of the pool's: its own keeps the loss from being an uncaught error.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const listeners = new Set<() => Promise<void>>();
    db = {
      kysely,
      kind: 'postgres',
      ping: async () => void (await sql`select 1`.execute(kysely)),
      listen: async (channel, handlers) => {
        const stop = await listenPostgres(options.url, channel, handlers);
        const unlisten = async () => {
          listeners.delete(unlisten);
          await stop();
        };
        listeners.add(unlisten);
        return unlisten;
      },
      close: async () => {
        await Promise.all([...listeners].map((unlisten) => unlisten()));
        await kysely.destroy();
      },
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
      listen: async (channel, handlers) => {
        assertChannelName(channel);
        const stop = pglite.onNotification((name, payload) => {
          if (name === channel) handlers.onNotify(payload);
        });
        // Through Kysely's lock: issued by PGlite directly it could land inside another caller's transaction.
        await sql.raw(`listen ${channel}`).execute(kysely);
        handlers.onListening();
        return async () => stop();
      },
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
