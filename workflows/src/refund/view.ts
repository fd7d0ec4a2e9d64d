/** Refunds as the merchant and the hosted pages read them. */
import type { Refund, RefundClaim } from '@checkout/core';
import {
  type Database,
  findRefundNames,
  listRefunds,
  presentRefund,
  presentRefundClaim,
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

/** What the customer's claim page shows, with the merchant's and the product's names. */
export async function viewRefundClaim(db: Kysely<Database>, row: RefundRow): Promise<RefundClaim> {
  return presentRefundClaim(row, await findRefundNames(db, row));
}
