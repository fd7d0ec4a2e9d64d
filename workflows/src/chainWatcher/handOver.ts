/**
 * The chain watcher's hand-over of the transfers in it recorded (`transfer.recorded`): each is handed to
 * the reactions (the reaction table: the checkouts it may pay, the quote whose deposit address it reached)
 * in the transaction that marks the transfer told; the workflow calls they queue there are made once the
 * tick is over (or by the dispatcher's sweep), so a tick that fails anywhere neither loses nor repeats one.
 */
import { type Database, inTransaction, listTransfersToHandOver, markTransferHandedOver } from '@checkout/db';
import type { Kysely } from 'kysely';
import type { ChainReactions } from './facts.ts';

/** Hands over what the watcher recorded on the chain and has not told yet; how many calls were queued. */
export async function handOverTransfers(
  db: Kysely<Database>,
  reactions: Pick<ChainReactions, 'transferRecorded'>,
  chainId: number,
): Promise<number> {
  let queued = 0;
  for (const transfer of await listTransfersToHandOver(db, chainId)) {
    await inTransaction(db, async (trx) => {
      queued += (await reactions.transferRecorded(trx, transfer)).length;
      await markTransferHandedOver(trx, { chainId, txHash: transfer.tx_hash, logIndex: transfer.log_index });
    });
  }
  return queued;
}
