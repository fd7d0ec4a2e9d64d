/**
 * A resolved payment's `paid_twice` flag follows the duplicates of it waiting open as unmatched transfers:
 * each time one is recorded, or settled (attached, refunded, dismissed), the payment's product webhook gets
 * `resolved_payment.updated` with the flag as it now stands, in the transaction that made the change.
 */
import { webhookEvents } from '@checkout/core';
import { type Database, findResolvedPayment, type SecretBox, type UnmatchedTransferRow } from '@checkout/db';
import type { Kysely } from 'kysely';
import { queueProductEvent } from '../webhookDelivery/queueProductEvent.ts';

/** Queues the announcement when `row` (as it was before the change) is a duplicate of a resolved payment. */
export async function announcePaidTwice(
  trx: Kysely<Database>,
  secrets: SecretBox,
  row: Pick<UnmatchedTransferRow, 'id' | 'kind' | 'resolved_payment_id'>,
  change: 'set' | 'cleared',
): Promise<void> {
  if (row.kind !== 'duplicate' || !row.resolved_payment_id) return;
  const payment = await findResolvedPayment(trx, row.resolved_payment_id);
  if (!payment) return;
  await queueProductEvent(trx, secrets, {
    payment,
    event: webhookEvents.resolvedPaymentUpdated,
    subjectId: `${payment.id}:paid_twice_${change}:${row.id}`,
  });
}
