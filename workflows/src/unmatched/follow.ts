/**
 * The calls that keep an unmatched transfer's workflow current, queued in the transaction of the change: its
 * start when the transfer is recorded, and a signal (`unmatchedTransferChanged`) on each change of the
 * transfer or of what hangs on it (its refund, the checkout it was attached to). The signal starts the
 * workflow again when it ended (its fate seemed sealed, or its follow window passed), so a later change is
 * followed too. A transfer below the notice threshold (`mail_wanted` false) has no workflow.
 */
import { type Database, findUnmatchedTransferById, type UnmatchedTransferRow } from '@checkout/db';
import type { Kysely } from 'kysely';
import { getAddress } from 'viem';
import { queueWorkflowCall, shown } from '../handOver/queueWorkflowCall.ts';
import { MerchantId, MerchantWallet, merchantWallet, ProductId } from '../shared.ts';
import { unmatchedTransferChangedSignal, unmatchedTransferSummary, unmatchedWorkflowId } from './shared.ts';

/** How the transfer's workflow is started: its input, the merchant's search attributes and its summary. */
function startCall(row: UnmatchedTransferRow) {
  return {
    args: [{ unmatchedTransferId: row.id }],
    searchAttributes: {
      [MerchantId.name]: row.merchant_id,
      [MerchantWallet.name]: merchantWallet(getAddress(row.receiving_address)),
      ...(row.product_id ? { [ProductId.name]: row.product_id } : {}),
    },
    ...shown(unmatchedTransferSummary(row)),
  };
}

/** Queues the start of a just-recorded transfer's workflow (once: a workflow that ran is not started again). */
export async function queueUnmatchedStart(db: Kysely<Database>, row: UnmatchedTransferRow): Promise<void> {
  await queueWorkflowCall(db, {
    kind: 'start',
    workflowType: 'unmatchedTransfer',
    workflowId: unmatchedWorkflowId(row.id),
    call: { ...startCall(row), once: true },
  });
}

/** Tells the transfers' workflows (started again when ended) to read what became of them, after commit. */
export async function queueUnmatchedChanged(db: Kysely<Database>, ids: readonly string[]): Promise<void> {
  for (const id of new Set(ids)) {
    const row = await findUnmatchedTransferById(db, id);
    if (!row?.mail_wanted) continue;
    await queueWorkflowCall(db, {
      kind: 'signal_with_start',
      workflowType: 'unmatchedTransfer',
      workflowId: unmatchedWorkflowId(id),
      call: { ...startCall(row), signal: { name: unmatchedTransferChangedSignal.name, args: [] } },
    });
  }
}
