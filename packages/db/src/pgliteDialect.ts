/**
 * Kysely over embedded PGlite. PGlite is one connection, so the "pool" hands it to one holder at a
 * time: a transaction keeps it until released, and other queries queue behind it.
 */
import type { PGlite } from '@electric-sql/pglite';
import { PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';

type Release = () => void;

/** A PostgresDialect whose pool is a single PGlite instance behind a FIFO lock. */
export function pgliteDialect(pglite: PGlite): PostgresDialect {
  let tail: Promise<void> = Promise.resolve();
  const acquire = async (): Promise<Release> => {
    let release!: Release;
    const next = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = tail;
    tail = previous.then(() => next);
    await previous;
    return release;
  };

  const pool: PostgresPool = {
    async connect(): Promise<PostgresPoolClient> {
      const release = await acquire();
      let released = false;
      return {
        async query(sql: string, parameters: ReadonlyArray<unknown>) {
          const result = await pglite.query<Record<string, unknown>>(sql, parameters as unknown[]);
          const command = (/^\s*(\w+)/.exec(sql)?.[1] ?? 'SELECT').toUpperCase();
          return {
            command: command as 'SELECT',
            rowCount: result.affectedRows ?? result.rows.length,
            rows: result.rows,
          };
        },
        release() {
          if (!released) {
            released = true;
            release();
          }
        },
      } as unknown as PostgresPoolClient;
    },
    async end() {},
    options: {},
  };
  return new PostgresDialect({ pool });
}
