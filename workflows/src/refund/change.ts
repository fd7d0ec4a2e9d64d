/**
 * Every change of a refund's status, in one transaction: the row moves, the `refund.updated` webhook is
 * queued, an unmatched transfer whose refund ended unpaid is given back to the merchant, and the refund's
 * workflow is told to read the row again. The merchant's cancel is one such change.
 */
import { ApiError, finalRefundStatuses } from '@checkout/core';
import {
  type Database,
  findRefundById,
  inTransaction,
  moveRefund,
  type RefundChange,
  type RefundRow,
  type RefundRowStatus,
  reopenRefundedTransfer,
  type SecretBox,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { queueWorkflowCall } from '../handOver/queueWorkflowCall.ts';
import { announceRefund } from './announce.ts';
import { refundChangedSignal, refundWorkflowId } from './shared.ts';

/** Statuses that end a refund unpaid: its unmatched transfer is open again. */
const unpaidEnds: readonly RefundRowStatus[] = ['canceled', 'expired'];

/**
 * Moves the refund from one of `from` to `to` (with `change`), announces it and signals its workflow;
 * undefined (and nothing written) when the refund was not in one of `from`.
 */
export async function changeRefund(
  db: Kysely<Database>,
  deps: { secrets: SecretBox; publicBaseUrl: string },
  input: { refundId: string; from: readonly RefundRowStatus[]; to: RefundRowStatus; change?: RefundChange },
): Promise<RefundRow | undefined> {
  const final = input.from.filter((s) => (finalRefundStatuses as readonly string[]).includes(s));
  if (final.length > 0) throw new Error(`a refund never leaves ${final.join(', ')}`);
  return inTransaction(db, async (trx) => {
    const row = await moveRefund(trx, input.refundId, input.from, input.to, input.change);
    if (!row) return undefined;
    if (row.unmatched_transfer_id && unpaidEnds.includes(row.status)) {
      await reopenRefundedTransfer(trx, row.unmatched_transfer_id);
    }
    await announceRefund(trx, deps, row);
    await queueWorkflowCall(trx, {
      kind: 'signal',
      workflowType: 'refund',
      workflowId: refundWorkflowId(row.id),
      call: { args: [], signal: { name: refundChangedSignal.name, args: [] } },
    });
    return row;
  });
}

/** Statuses a refund is canceled from: before its transfer was seen. */
const cancelable: readonly RefundRowStatus[] = ['awaiting_address', 'ready_to_pay'];

/**
 * The merchant's cancel of a refund not yet paid; a 409 once its transfer was seen (`sent`, `confirmed`)
 * or it already ended. An unmatched transfer's refund gives the transfer back, open.
 */
export async function cancelRefund(
  db: Kysely<Database>,
  deps: { secrets: SecretBox; publicBaseUrl: string },
  row: RefundRow,
): Promise<RefundRow> {
  const canceled = await changeRefund(db, deps, { refundId: row.id, from: cancelable, to: 'canceled' });
  if (canceled) return canceled;
  const now = (await findRefundById(db, row.id)) ?? row;
  throw new ApiError(
    'conflict',
    `This refund is ${now.status.replace(/_/g, ' ')}: it can no longer be canceled`,
  );
}
