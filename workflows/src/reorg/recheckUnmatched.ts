/**
 * An unmatched transfer whose block a reorganisation took away, asked of the chain as a resolved payment is
 * (`chainVerdict`): moved to the block that holds it now, or — when its transaction left the chain —
 * `reversed`, so that the merchant never refunds money that did not arrive. A refund of it not yet paid is
 * canceled first, in the same transaction. A reversed one whose transaction is mined again is open again.
 * Each outcome is announced once there: the signed `unmatched_transfer.updated` webhook to the nearest
 * product's `webhook_url`.
 */
import { webhookEvents } from '@checkout/core';
import {
  type Database,
  inTransaction,
  listNearSessions,
  listUnpaidRefundsOfTransfer,
  recordUnmatchedReorg,
  type SecretBox,
  type UnmatchedTransferRow,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { changeRefund } from '../refund/change.ts';
import { queueUnmatchedChanged } from '../unmatched/follow.ts';
import { queueProductEvent } from '../webhookDelivery/queueProductEvent.ts';
import type { Verdict } from './recheck.ts';

/** Records what the chain says of the transfer and queues its webhook; whether anything changed. */
export async function recordUnmatchedVerdict(
  db: Kysely<Database>,
  deps: { secrets: SecretBox; publicBaseUrl: string },
  row: UnmatchedTransferRow,
  verdict: NonNullable<Verdict>,
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    if (verdict.outcome === 'reversed' && row.status === 'refunded') {
      for (const refund of await listUnpaidRefundsOfTransfer(trx, row.id)) {
        await changeRefund(trx, deps, {
          refundId: refund.id,
          to: 'canceled',
        });
      }
    }
    const updated = await recordUnmatchedReorg(
      trx,
      row.id,
      verdict.outcome === 'reversed' ? { reversed: true } : { block: verdict },
    );
    if (!updated) return false;
    await queueUnmatchedChanged(trx, [updated.id]);
    await queueProductEvent(trx, deps.secrets, {
      transfer: updated,
      near: (await listNearSessions(trx, [updated.id])).get(updated.id) ?? [],
      event: webhookEvents.unmatchedTransferUpdated,
      subjectId: `${updated.id}:reorg:${verdict.outcome}:${row.block_hash}`,
    });
    return true;
  });
}
