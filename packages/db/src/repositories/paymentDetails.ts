/** Area B payment details: bank accounts of a user, their fields sealed. */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { checkTransition, paymentDetailTransitions } from '../transitions.ts';
import type { PaymentDetailRow, PaymentDetailsTable } from '../usersSchema.ts';
import { findUserRecord, listUserRecords, type UserScope } from './userRecords.ts';

/** A new payment detail row; the status version starts at 0. */
export type NewPaymentDetailRow = Omit<PaymentDetailsTable, 'status_version' | 'created_at' | 'updated_at'>;

/** Inserts a payment detail. */
export async function insertPaymentDetail(
  db: Kysely<Database>,
  row: NewPaymentDetailRow,
): Promise<PaymentDetailRow> {
  const now = new Date();
  return db
    .insertInto('payment_details')
    .values({ ...row, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A payment detail of the account's user, or undefined. */
export const findPaymentDetail = (
  db: Kysely<Database>,
  scope: UserScope,
  id: string,
): Promise<PaymentDetailRow | undefined> => findUserRecord(db, 'payment_details', scope, id);

/** Every payment detail of a user, oldest first. */
export const listPaymentDetails = (db: Kysely<Database>, scope: UserScope): Promise<PaymentDetailRow[]> =>
  listUserRecords(db, 'payment_details', scope);

/**
 * Moves a detail from `from` to `status` (a move of {@link paymentDetailTransitions}) and bumps its version;
 * undefined when it was already `status`, or no longer `from`.
 */
export async function setPaymentDetailStatus(
  db: Kysely<Database>,
  id: string,
  from: PaymentDetailRow['status'],
  status: PaymentDetailRow['status'],
): Promise<PaymentDetailRow | undefined> {
  if (from === status) return undefined;
  checkTransition('payment detail', paymentDetailTransitions, from, status);
  return db
    .updateTable('payment_details')
    .set((eb) => ({ status, status_version: eb('status_version', '+', 1), updated_at: new Date() }))
    .where('id', '=', id)
    .where('status', '=', from)
    .returningAll()
    .executeTakeFirst();
}
