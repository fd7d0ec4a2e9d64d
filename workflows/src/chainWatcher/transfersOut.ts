/**
 * The transfers out a tick reads: over the tick's blocks, the Transfer logs someone awaits (see
 * `ChainReactions.awaitedTransfersOut`), one `eth_getLogs` per hundred senders and receivers, only while
 * one is awaited on the chain. Only logs as awaited (token, sender and receiver; any amount, so that a
 * transfer of another amount is seen too) are kept, each with its block's time, and handed to the reactions.
 */
import { type ChainClient, type OutgoingTransferLog, readOutgoingTransfers } from '@checkout/chain';
import { type Address, getAddress } from 'viem';
import { getBlock } from 'viem/actions';
import type { AwaitedTransferOut, ChainReactions, TransferOut } from './facts.ts';

/** Reads `[fromBlock, toBlock]` for the awaited transfers out and hands those found to the reactions. */
export async function readTransfersOut(
  ctx: { chain: ChainClient; reactions: Pick<ChainReactions, 'transfersOut'> },
  awaited: readonly AwaitedTransferOut[],
  range: { fromBlock: bigint; toBlock: bigint },
): Promise<void> {
  if (awaited.length === 0 || range.fromBlock > range.toBlock) return;
  const { chain } = ctx;
  const unique = (values: string[]) => [...new Set(values.map((v) => getAddress(v)))] as Address[];
  const logs = (
    await readOutgoingTransfers({
      client: chain.client,
      tokens: unique(awaited.map((a) => a.token)),
      from: unique(awaited.map((a) => a.from)),
      to: unique(awaited.map((a) => a.to)),
      ...range,
    })
  ).filter((log) => awaited.some((a) => fits(a, log)));
  if (logs.length === 0) return;
  const minedAt = new Map<bigint, number>();
  for (const blockNumber of new Set(logs.map((l) => l.blockNumber))) {
    const block = await getBlock(chain.client, { blockNumber });
    minedAt.set(blockNumber, Number(block.timestamp) * 1000);
  }
  const found: TransferOut[] = logs.map((l) => ({ ...l, minedAt: minedAt.get(l.blockNumber) ?? 0 }));
  await ctx.reactions.transfersOut(chain.chainId, found);
}

/** Whether the log is an awaited transfer (its token, sender and receiver). */
function fits(awaited: AwaitedTransferOut, log: OutgoingTransferLog): boolean {
  return (
    log.token.toLowerCase() === awaited.token.toLowerCase() &&
    log.from.toLowerCase() === awaited.from.toLowerCase() &&
    log.to.toLowerCase() === awaited.to.toLowerCase()
  );
}
