/**
 * Before a refund ready to pay is canceled: whether the chain already holds a transfer for it that the chain's
 * watcher has not read yet. The watcher recognises every transfer in the blocks it read while the refund was
 * ready to pay (recognise.ts); the blocks past its position (its `next_block`, the unconfirmed tail included)
 * are read here, up to the chain's head, for the refund's token from its receiving address to its refund
 * address, of any amount. A cancel that came first would otherwise leave such a transfer counted nowhere.
 */
import { type ChainClients, readOutgoingTransfers } from '@checkout/chain';
import { ApiError } from '@checkout/core';
import { type Database, findChainWatch, listRefundTransfers, type RefundRow } from '@checkout/db';
import type { Kysely } from 'kysely';
import { type Address, getAddress } from 'viem';

/** How far back the blocks are read when the chain's watcher has never run (no position recorded). */
const unwatchedBlocks = 10_000n;

/**
 * The transaction hash of a transfer for the refund on the chain that no refund has recorded yet, if any; a
 * 503 when the chain cannot be asked. Nothing to read for a refund without an address.
 */
export async function unreadRefundTransfer(
  db: Kysely<Database>,
  chains: ChainClients,
  row: RefundRow,
): Promise<string | undefined> {
  if (row.status !== 'ready_to_pay' || row.refund_address === null) return undefined;
  const client = chains.get(row.chain_id)?.client;
  const unreachable = () =>
    new ApiError(
      'service_unavailable',
      `The chain ${row.chain_id} cannot be reached to check that no transfer pays the refund yet; retry later`,
    );
  if (!client) throw unreachable();
  try {
    // The head now, not a cached one: the transfer may be in the newest block.
    const head = await client.getBlockNumber({ cacheTime: 0 });
    const watch = await findChainWatch(db, row.chain_id);
    const fromBlock = watch ? BigInt(watch.next_block) : head > unwatchedBlocks ? head - unwatchedBlocks : 0n;
    const logs = await readOutgoingTransfers({
      client,
      tokens: [getAddress(row.token_address) as Address],
      from: [getAddress(row.from_address) as Address],
      to: [getAddress(row.refund_address) as Address],
      fromBlock,
      toBlock: head,
    });
    const taken = await listRefundTransfers(
      db,
      row.chain_id,
      logs.map((l) => l.txHash),
    );
    return logs.find((l) => !taken.has(`${l.txHash.toLowerCase()}:${l.logIndex}`))?.txHash.toLowerCase();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw unreachable();
  }
}
