/**
 * The checkout's reaction to a transfer the chain watcher recorded: the checkouts it may pay are told (the
 * sessions of its receiving address whose reference its transaction's input carries, and the one holding
 * exactly its amount: not every one open on the address). A checkout that ended, or has not started (it
 * reads what is recorded when it does), is left alone.
 */
import { type ChainTransferRow, type Database, listSessionsAwaiting } from '@checkout/db';
import type { Kysely } from 'kysely';
import { queueWorkflowCall } from '../handOver/queueWorkflowCall.ts';
import { referenceWindows } from './matching.ts';
import { checkoutWorkflowId, transferSeenSignal } from './shared.ts';
import type { SessionWindows } from './start.ts';

/** Queues, in `trx`, the signal of each checkout `transfer` may pay; the calls' ids. */
export async function tellSessionsOfTransfer(
  trx: Kysely<Database>,
  transfer: ChainTransferRow,
  windows: SessionWindows,
): Promise<string[]> {
  const expectedPayments = await listSessionsAwaiting(trx, {
    chainId: transfer.chain_id,
    to: transfer.to_address,
    references: referenceWindows(transfer.tx_input),
    token: transfer.token_address,
    amount: transfer.amount,
    blockNumber: BigInt(transfer.block_number),
    ...windows,
  });
  const ids: string[] = [];
  for (const expectedPaymentId of expectedPayments) {
    ids.push(
      await queueWorkflowCall(trx, {
        kind: 'signal',
        workflowType: 'checkoutSession',
        workflowId: checkoutWorkflowId(expectedPaymentId),
        call: { args: [], signal: { name: transferSeenSignal.name, args: [] } },
      }),
    );
  }
  return ids;
}
