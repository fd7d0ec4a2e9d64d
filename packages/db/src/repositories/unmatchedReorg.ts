/** Unmatched transfers and reorganisations: which ones a replaced block puts in doubt, and what became of each. */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.ts';
import { statusesMovingTo, unmatchedTransferTransitions } from '../transitions.ts';
import type { UnmatchedTransferRow, UnmatchedTransferStatus } from '../unmatchedSchema.ts';

/** The status machine's name in its errors. */
const machine = 'unmatched transfer';
/** The statuses a reorganisation re-checks: open, refunded (its refund may not be paid yet), reversed (it may be mined again). */
const recheckedStatuses: UnmatchedTransferStatus[] = ['open', 'refunded', 'reversed'];

/**
 * Unmatched transfers in `[fromBlock, toBlock)` whose block the chain's watcher no longer vouches for (their
 * recorded transfer is gone or in another block): open ones, refunded ones (whose refund may not be paid
 * yet), and reversed ones (whose transaction may be mined again).
 */
export async function listUnmatchedToRecheck(
  db: Kysely<Database>,
  input: { chainId: number; fromBlock: bigint; toBlock: bigint },
): Promise<UnmatchedTransferRow[]> {
  return db
    .selectFrom('unmatched_transfers')
    .leftJoin('chain_transfers', (join) =>
      join
        .onRef('chain_transfers.chain_id', '=', 'unmatched_transfers.chain_id')
        .onRef('chain_transfers.tx_hash', '=', 'unmatched_transfers.tx_hash')
        .onRef('chain_transfers.log_index', '=', 'unmatched_transfers.log_index'),
    )
    .selectAll('unmatched_transfers')
    .where('unmatched_transfers.chain_id', '=', input.chainId)
    .where('unmatched_transfers.status', 'in', recheckedStatuses)
    .where('unmatched_transfers.block_hash', 'is not', null)
    .where(sql<boolean>`unmatched_transfers.block_number >= ${input.fromBlock.toString()}::numeric`)
    .where(sql<boolean>`unmatched_transfers.block_number < ${input.toBlock.toString()}::numeric`)
    .where((eb) =>
      eb.or([
        eb('chain_transfers.block_hash', 'is', null),
        eb('chain_transfers.block_hash', '!=', eb.ref('unmatched_transfers.block_hash')),
      ]),
    )
    .limit(100)
    .execute();
}

/**
 * What a reorganisation did to an unmatched transfer: `reversed` (its transaction left the chain) when it is
 * open, or moved to the block that holds it now (a reversed one is open again: its transaction was mined
 * again); undefined when nothing changed.
 */
export async function recordUnmatchedReorg(
  db: Kysely<Database>,
  id: string,
  change: { reversed: true } | { block: { number: bigint; hash: string } },
): Promise<UnmatchedTransferRow | undefined> {
  return db
    .updateTable('unmatched_transfers')
    .set({
      ...('reversed' in change
        ? { status: 'reversed' as const }
        : {
            status: sql<UnmatchedTransferStatus>`case when status = 'reversed' then 'open' else status end`,
            block_number: change.block.number.toString(),
            block_hash: change.block.hash.toLowerCase(),
          }),
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .where(
      'status',
      'in',
      // Moved to another block: it keeps its status, but a reversed one is open again.
      'reversed' in change
        ? statusesMovingTo(machine, unmatchedTransferTransitions, 'reversed')
        : recheckedStatuses,
    )
    .returningAll()
    .executeTakeFirst();
}
