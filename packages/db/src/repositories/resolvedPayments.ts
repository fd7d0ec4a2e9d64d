/** Resolved payments: one row per on-chain transfer into a merchant wallet. */
import type { Kysely } from 'kysely';
import type { Database, ResolvedPaymentRow } from '../schema.ts';

/** Resolved payments of a product, newest first. */
export async function listResolvedPayments(
  db: Kysely<Database>,
  productId: string,
): Promise<ResolvedPaymentRow[]> {
  return db
    .selectFrom('resolved_payments')
    .selectAll()
    .where('product_id', '=', productId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** A resolved payment by id, or undefined. */
export async function findResolvedPayment(
  db: Kysely<Database>,
  id: string,
): Promise<ResolvedPaymentRow | undefined> {
  return db.selectFrom('resolved_payments').selectAll().where('id', '=', id).executeTakeFirst();
}
