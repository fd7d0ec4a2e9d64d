/**
 * Every change of a refund's status, in one transaction: the row moves, the `refund.updated` webhook is
 * queued, an unmatched transfer whose refund ended unpaid is given back to the merchant, and the refund's
 * workflow (and an unmatched transfer's) is told to read the row again. The merchant's cancel is one such change.
 */
import type { ChainClients } from '@checkout/chain';
import { ApiError } from '@checkout/core';
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
import { queueUnmatchedChanged } from '../unmatched/follow.ts';
import { queueProductEvent } from '../webhookDelivery/queueProductEvent.ts';
import { unreadRefundTransfer } from './onChain.ts';
import { refundChangedSignal, refundWorkflowId } from './shared.ts';

/** Statuses that end a refund unpaid: its unmatched transfer is open again. */
const unpaidEnds: readonly RefundRowStatus[] = ['canceled', 'expired'];

/**
 * Moves the refund to `to` (with `change`) from one of `from` — by default from any status its machine moves
 * to `to` from (`refundTransitions`, packages/db/src/transitions.ts) — announces it and signals its
 * workflow; undefined (and nothing written) when the refund was in none of them.
 */
export async function changeRefund(
  db: Kysely<Database>,
  deps: { secrets: SecretBox; publicBaseUrl: string },
  input: { refundId: string; from?: readonly RefundRowStatus[]; to: RefundRowStatus; change?: RefundChange },
): Promise<RefundRow | undefined> {
  return inTransaction(db, async (trx) => {
    const move = { to: input.to, ...(input.from ? { from: input.from } : {}) };
    const row = await moveRefund(trx, input.refundId, move, input.change);
    if (!row) return undefined;
    if (row.unmatched_transfer_id && unpaidEnds.includes(row.status)) {
      await reopenRefundedTransfer(trx, row.unmatched_transfer_id);
    }
    await queueProductEvent(trx, deps.secrets, { refund: row, publicBaseUrl: deps.publicBaseUrl });
    await signalRefund(trx, row.id);
    if (row.unmatched_transfer_id) await queueUnmatchedChanged(trx, [row.unmatched_transfer_id]);
    return row;
  });
}

/**
 * A part payment recorded against a refund still ready to pay, in the transaction that records it: the
 * `refund.updated` webhook with what it was paid and what is still due (once per sum paid), and its workflow
 * told to read the row again (it e-mails the merchant).
 */
export async function noteRefundPartPayment(
  db: Kysely<Database>,
  deps: { secrets: SecretBox; publicBaseUrl: string },
  row: RefundRow,
): Promise<void> {
  await queueProductEvent(db, deps.secrets, {
    refund: row,
    publicBaseUrl: deps.publicBaseUrl,
    subjectId: `${row.id}:paid:${row.paid_amount}`,
  });
  await signalRefund(db, row.id);
}

/** Tells the refund's workflow to read its row again, once the transaction commits. */
export async function signalRefund(db: Kysely<Database>, refundId: string): Promise<void> {
  await queueWorkflowCall(db, {
    kind: 'signal',
    workflowType: 'refund',
    workflowId: refundWorkflowId(refundId),
    call: { args: [], signal: { name: refundChangedSignal.name, args: [] } },
  });
}

/**
 * The merchant's cancel of a refund not yet paid; a 409 once its transfer was seen (`sent`, `confirmed`), it
 * already ended, or the chain holds a transfer for it the watcher has not read yet (`unreadRefundTransfer`:
 * the cancel waits until the chain shows none, so a transfer mined first is always counted). An unmatched
 * transfer's refund gives the transfer back, open.
 */
export async function cancelRefund(
  db: Kysely<Database>,
  deps: { secrets: SecretBox; publicBaseUrl: string; chains: ChainClients },
  row: RefundRow,
  reason?: string,
): Promise<RefundRow> {
  const onTheWay = await unreadRefundTransfer(db, deps.chains, row);
  if (onTheWay) {
    throw new ApiError(
      'conflict',
      `A transfer for this refund is on the chain (${onTheWay}) and is being recognised: it cannot be canceled now; once it is seen, cancel what is still due`,
    );
  }
  const canceled = await changeRefund(db, deps, {
    refundId: row.id,
    to: 'canceled',
    change: { cancel_reason: reason ?? null },
  });
  if (canceled) return canceled;
  const now = (await findRefundById(db, row.id)) ?? row;
  throw new ApiError(
    'conflict',
    `This refund is ${now.status.replace(/_/g, ' ')}: it can no longer be canceled`,
  );
}
