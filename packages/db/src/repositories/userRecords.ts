/**
 * Records that belong to one user of one account (payment details, quotes, offramps, onramps): found and
 * listed only within that scope, so another account's id reads as absent.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.ts';

/** The tables of user-owned records. */
export type UserRecordTable = 'payment_details' | 'quotes' | 'offramps' | 'onramps';

/** The account's user that owns a record. */
export interface UserScope {
  merchantId: string;
  userId: string;
}

/** The query over one table, within the scope (all these tables share the columns it uses). */
function scoped(db: Kysely<Database>, table: UserRecordTable, scope: UserScope) {
  return db
    .selectFrom(table as 'quotes')
    .selectAll()
    .where('user_id', '=', scope.userId)
    .where('merchant_id', '=', scope.merchantId);
}

/** A record of the account's user, or undefined. */
export async function findUserRecord<T extends UserRecordTable>(
  db: Kysely<Database>,
  table: T,
  scope: UserScope,
  id: string,
): Promise<Selectable<Database[T]> | undefined> {
  return (await scoped(db, table, scope).where('id', '=', id).executeTakeFirst()) as
    | Selectable<Database[T]>
    | undefined;
}

/** Every record of the account's user in `table`, oldest first. */
export async function listUserRecords<T extends UserRecordTable>(
  db: Kysely<Database>,
  table: T,
  scope: UserScope,
): Promise<Array<Selectable<Database[T]>>> {
  return (await scoped(db, table, scope).orderBy('created_at').orderBy('id').execute()) as Array<
    Selectable<Database[T]>
  >;
}
