/** What became of an unmatched transfer, as its workflow shows it: read from its row and what hangs on it. */
import {
  type Database,
  findExpectedPayment,
  findLatestRefundOfTransfer,
  findUnmatchedTransferById,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { type UnmatchedFate, unmatchedTransferSummary } from './shared.ts';

/** The transfer's status, and the expected payment or refund it now hangs on; `missing` without its row. */
export async function readUnmatchedFate(
  db: Kysely<Database>,
  input: { unmatchedTransferId: string },
): Promise<UnmatchedFate> {
  const row = await findUnmatchedTransferById(db, input.unmatchedTransferId);
  if (!row)
    return { title: '', status: 'missing', expectedPayment: null, resolvedPaymentId: null, refund: null };
  const expected = row.expected_payment_id ? await findExpectedPayment(db, row.expected_payment_id) : null;
  const refund = row.status === 'refunded' ? await findLatestRefundOfTransfer(db, row.id) : null;
  return {
    title: unmatchedTransferSummary(row).staticSummary,
    status: row.status,
    expectedPayment: expected ? { id: expected.id, status: expected.status } : null,
    // Attached to an expected payment: the payment its checkout recorded; else the one it topped up.
    resolvedPaymentId:
      row.status !== 'attached' ? null : expected ? expected.resolved_payment_id : row.resolved_payment_id,
    refund: refund ? { id: refund.id, status: refund.status } : null,
  };
}
