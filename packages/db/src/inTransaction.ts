/** The one way a step opens a transaction, so that steps compose. */
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** Runs `fn` in a transaction: the caller's own when `db` already is one. */
export function inTransaction<T>(
  db: Kysely<Database>,
  fn: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}
