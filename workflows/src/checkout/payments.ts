/** A product's resolved payments as the merchant reads them: each with what is unusual about it. */
import type { ResolvedPayment } from '@checkout/core';
import {
  type Database,
  listPaidTwice,
  listResolvedPayments,
  type ProductRow,
  presentResolvedPayment,
  type SecretBox,
} from '@checkout/db';
import type { Kysely } from 'kysely';

/** The product's resolved payments, newest first, `paid_twice` where a duplicate waits. */
export async function productPayments(
  db: Kysely<Database>,
  secrets: SecretBox,
  product: ProductRow,
): Promise<ResolvedPayment[]> {
  const rows = await listResolvedPayments(db, product.id);
  const paidTwice = await listPaidTwice(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentResolvedPayment(r, product, secrets, { paidTwice: paidTwice.has(r.id) }));
}
