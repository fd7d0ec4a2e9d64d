/**
 * A checkout session as the shopper's element sees it: the session, its price, and — for a session paid from
 * another device — the transfers of another amount that arrived in its window and that no checkout took, so
 * the QR page can say so at once.
 */
import { type CheckoutSession, formatUnits } from '@checkout/core';
import {
  type CheckoutSessionRow,
  type Database,
  findExpectedPayment,
  listUnmatchedNearSession,
  presentSession,
} from '@checkout/db';
import type { Kysely } from 'kysely';

/**
 * The session's wire shape; `dollarAmount` saves the read of its expected payment when known, and `opened`
 * (the session was opened by the caller's own request) the read of the transfers near it: none has arrived yet.
 */
export async function viewSession(
  db: Kysely<Database>,
  row: CheckoutSessionRow,
  dollarAmount?: string,
  { opened = false }: { opened?: boolean } = {},
): Promise<CheckoutSession> {
  const price =
    dollarAmount ?? (await findExpectedPayment(db, row.expected_payment_id))?.dollar_amount ?? '0';
  const unmatched = row.amount_tail === null || opened ? [] : await listUnmatchedNearSession(db, row.id);
  return presentSession(
    row,
    price,
    unmatched.map((u) => ({
      tx_hash: u.tx_hash,
      amount: formatUnits(BigInt(u.amount), u.token.decimal_count),
      token_symbol: u.token.symbol,
      seen_at: u.created_at.toISOString(),
    })),
  );
}
