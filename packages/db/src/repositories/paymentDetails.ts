/** Area B payment details: bank accounts of a user, their fields sealed. */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { PaymentDetailRow, PaymentDetailsTable } from '../usersSchema.ts';

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
export async function findPaymentDetail(
  db: Kysely<Database>,
  scope: { merchantId: string; userId: string },
  id: string,
): Promise<PaymentDetailRow | undefined> {
  return db
    .selectFrom('payment_details')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', scope.userId)
    .where('merchant_id', '=', scope.merchantId)
    .executeTakeFirst();
}

/** Every payment detail of a user, oldest first. */
export async function listPaymentDetails(
  db: Kysely<Database>,
  scope: { merchantId: string; userId: string },
): Promise<PaymentDetailRow[]> {
  return db
    .selectFrom('payment_details')
    .selectAll()
    .where('user_id', '=', scope.userId)
    .where('merchant_id', '=', scope.merchantId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Moves a detail to `status` and bumps its version; undefined when the status was already that. */
export async function setPaymentDetailStatus(
  db: Kysely<Database>,
  id: string,
  status: PaymentDetailRow['status'],
): Promise<PaymentDetailRow | undefined> {
  return db
    .updateTable('payment_details')
    .set((eb) => ({ status, status_version: eb('status_version', '+', 1), updated_at: new Date() }))
    .where('id', '=', id)
    .where('status', '!=', status)
    .returningAll()
    .executeTakeFirst();
}
