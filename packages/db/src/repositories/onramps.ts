/** Onramps: fiat deposits in, treasury token transfers out, with every status change versioned. */
import type { Kysely } from 'kysely';
import type {
  OnrampDepositRow,
  OnrampRow,
  OnrampStatusValue,
  OnrampsTable,
  StoredDeposit,
  StoredOnrampRefund,
} from '../rampsSchema.ts';
import type { Database } from '../schema.ts';
import { checkTransition, onrampTransitions } from '../transitions.ts';
import { findUserRecord, listUserRecords, type UserScope } from './userRecords.ts';

/** A new onramp row; the status version starts at 0. */
export type NewOnrampRow = Omit<
  OnrampsTable,
  | 'status_version'
  | 'created_at'
  | 'updated_at'
  | 'expires_at'
  | 'deposits'
  | 'refunds'
  | 'tx_hash'
  | 'tx_serialized'
  | 'tx_nonce'
> & { expires_at: Date };

/** Inserts an onramp. */
export async function insertOnramp(db: Kysely<Database>, row: NewOnrampRow): Promise<OnrampRow> {
  const now = new Date();
  return db
    .insertInto('onramps')
    .values({ ...row, deposits: '[]', refunds: '[]', created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An onramp of the account's user, or undefined. */
export const findOnramp = (
  db: Kysely<Database>,
  scope: UserScope,
  id: string,
): Promise<OnrampRow | undefined> => findUserRecord(db, 'onramps', scope, id);

/** An onramp by id, unscoped (for its workflow). */
export async function findOnrampById(db: Kysely<Database>, id: string): Promise<OnrampRow | undefined> {
  return db.selectFrom('onramps').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Every onramp of a user, oldest first. */
export const listOnramps = (db: Kysely<Database>, scope: UserScope): Promise<OnrampRow[]> =>
  listUserRecords(db, 'onramps', scope);

/** What a status change writes besides the status. */
export interface OnrampChange {
  status: OnrampStatusValue;
  statusMessage: string | null;
  receivedAmount?: string;
  deposits?: StoredDeposit[];
  refunds?: StoredOnrampRefund[];
}

/**
 * Moves an onramp from `from` to a new status (a move of its machine, {@link onrampTransitions}), bumping
 * its version; undefined when it was no longer in `from` (another change came first), so a retried or
 * racing step never applies twice.
 */
export async function transitionOnramp(
  db: Kysely<Database>,
  id: string,
  from: OnrampStatusValue,
  change: OnrampChange,
): Promise<OnrampRow | undefined> {
  checkTransition('onramp', onrampTransitions, from, change.status);
  return writeOnramp(db, id, { status: from }, change);
}

/**
 * Replaces the onramp's deposits and refunds without touching its status or message, bumping its version
 * (so the change gets its own `onramp_update`), when the version is still `version`; undefined otherwise.
 */
export async function updateOnrampRefunds(
  db: Kysely<Database>,
  id: string,
  version: number,
  change: { deposits?: StoredDeposit[]; refunds: StoredOnrampRefund[] },
): Promise<OnrampRow | undefined> {
  return writeOnramp(db, id, { status_version: version }, change);
}

/** Writes a change of the onramp while it is still as `expected`, bumping its version; undefined otherwise. */
function writeOnramp(
  db: Kysely<Database>,
  id: string,
  expected: { status: OnrampStatusValue } | { status_version: number },
  change: Partial<OnrampChange>,
): Promise<OnrampRow | undefined> {
  return db
    .updateTable('onramps')
    .set((eb) => ({
      ...(change.status === undefined ? {} : { status: change.status, status_message: change.statusMessage }),
      ...(change.receivedAmount === undefined ? {} : { received_amount: change.receivedAmount }),
      ...(change.deposits === undefined ? {} : { deposits: JSON.stringify(change.deposits) }),
      ...(change.refunds === undefined ? {} : { refunds: JSON.stringify(change.refunds) }),
      status_version: eb('status_version', '+', 1),
      updated_at: new Date(),
    }))
    .where('id', '=', id)
    .where((eb) => eb.and(expected))
    .returningAll()
    .executeTakeFirst();
}

/** Stores a deposit notice of the bank partner (its hand-over is queued with it). */
export async function insertOnrampDeposit(
  db: Kysely<Database>,
  row: { id: string; onramp_id: string; amount: string },
): Promise<OnrampDepositRow> {
  return db
    .insertInto('onramp_deposits')
    .values({ ...row, created_at: new Date() })
    .returningAll()
    .executeTakeFirstOrThrow();
}
