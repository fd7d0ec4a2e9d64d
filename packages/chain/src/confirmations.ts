/** How deep a transaction is buried: the count verifyPayment compares with a chain's required confirmations. */
import { getBlockNumber } from 'viem/actions';
import type { AnyClient } from './chainReads.ts';

/**
 * Confirmations of a block: latest − `blockNumber` + 1, so the block itself counts as one; 0 when not
 * mined. Pass `latestBlockNumber` when already read to save the RPC call.
 */
export async function getConfirmations(params: {
  client: AnyClient;
  blockNumber: bigint | null | undefined;
  latestBlockNumber?: bigint;
}): Promise<number> {
  const { blockNumber } = params;
  if (blockNumber === null || blockNumber === undefined) return 0;
  // viem caches the block number for the polling interval; a stale one would undercount confirmations.
  const latest = params.latestBlockNumber ?? (await getBlockNumber(params.client, { cacheTime: 0 }));
  // A load-balanced RPC may answer `latest` from a node behind the one that served the receipt.
  if (latest < blockNumber) return 0;
  return Number(latest - blockNumber + 1n);
}
