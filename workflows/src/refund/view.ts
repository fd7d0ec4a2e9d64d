/** Refunds as the merchant and the hosted pages read them. */
import type { Refund, RefundClaim, RefundPaymentView } from '@checkout/core';
import {
  type Database,
  findRefundContext,
  listRefunds,
  presentRefund,
  presentRefundClaim,
  presentRefundPaymentView,
  type RefundFilter,
  type RefundRow,
  type SecretBox,
} from '@checkout/db';
import type { Kysely } from 'kysely';

/** The wallet's refunds (of one payment or transfer when the filter says), newest first. */
export async function listWalletRefunds(
  db: Kysely<Database>,
  deps: { secrets: SecretBox; publicBaseUrl: string },
  scope: { merchantId: string; addressId: string },
  filter: RefundFilter,
): Promise<Refund[]> {
  const rows = await listRefunds(db, scope, filter);
  return rows.map((row) => presentRefund(row, deps));
}

/** What the customer's claim page shows, with the shop, the order refunded and the merchant's contact. */
export async function viewRefundClaim(db: Kysely<Database>, row: RefundRow): Promise<RefundClaim> {
  return presentRefundClaim(row, await findRefundContext(db, row));
}

/** What the merchant's pay page shows: the exact transfer to make, and the order it refunds. */
export async function viewRefundPayment(db: Kysely<Database>, row: RefundRow): Promise<RefundPaymentView> {
  return presentRefundPaymentView(row, await findRefundContext(db, row));
}
