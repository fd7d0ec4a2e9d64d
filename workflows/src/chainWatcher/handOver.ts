/**
 * The chain watcher's hand-over: each recorded transfer is told to the checkouts it may pay (by receiving
 * address and sender, or for a session paid from another device, by the exact amount it holds: one phone
 * session, not every one open on the address) and to the quote whose deposit
 * address it reached. The calls are queued in the transaction that marks the transfer told, then made, so a
 * tick that fails anywhere neither loses nor repeats one.
 */
import {
  type Database,
  inTransaction,
  listQuotesPaidInto,
  listSessionsAwaiting,
  listTransfersToHandOver,
  markTransferHandedOver,
} from '@checkout/db';
import type { Client } from '@temporalio/client';
import type { Kysely } from 'kysely';
import { checkoutWorkflowId, transferSeenSignal } from '../checkout/shared.ts';
import { createWorkflowCallDispatcher, type DispatcherLog } from '../handOver/dispatcher.ts';
import { queueWorkflowCall } from '../handOver/queueWorkflowCall.ts';
import { depositReportedCall } from '../quote/start.ts';

/** How long sessions stay open to a payment: their window, as the watcher lists them. */
export interface SessionWindows {
  sessionTtlMinutes: number;
  graceMinutes: number;
}

/** Tells what the watcher recorded on the chain and has not told yet; how many calls it made. */
export async function handOverTransfers(
  deps: { db: Kysely<Database>; client: Client; taskQueue: string; log: DispatcherLog },
  chainId: number,
  windows: SessionWindows,
): Promise<number> {
  const { db } = deps;
  const ids: string[] = [];
  for (const transfer of await listTransfersToHandOver(db, chainId)) {
    await inTransaction(db, async (trx) => {
      const expectedPayments = await listSessionsAwaiting(trx, {
        chainId,
        to: transfer.to_address,
        senders: [transfer.from_address, transfer.tx_from],
        token: transfer.token_address,
        amount: transfer.amount,
        blockNumber: BigInt(transfer.block_number),
        ...windows,
      });
      for (const expectedPaymentId of expectedPayments) {
        // A checkout that ended (or has not started: it reads what is recorded when it does) is left alone.
        ids.push(
          await queueWorkflowCall(trx, {
            kind: 'signal',
            workflowType: 'checkoutSession',
            workflowId: checkoutWorkflowId(expectedPaymentId),
            call: { args: [], signal: { name: transferSeenSignal.name, args: [] } },
          }),
        );
      }
      for (const quote of await listQuotesPaidInto(trx, { chainId, to: transfer.to_address })) {
        if (quote.token_address.toLowerCase() !== transfer.token_address) continue;
        // Started again when its run has ended: a transfer after the quote's end is returned all the same.
        ids.push(await queueWorkflowCall(trx, depositReportedCall(quote, transfer.tx_hash)));
      }
      await markTransferHandedOver(trx, { chainId, txHash: transfer.tx_hash, logIndex: transfer.log_index });
    });
  }
  // Calls Temporal does not take now are made by the dispatcher's sweep.
  await createWorkflowCallDispatcher({
    db,
    temporal: { client: deps.client },
    taskQueue: deps.taskQueue,
    log: deps.log,
  }).dispatch(ids);
  return ids.length;
}
