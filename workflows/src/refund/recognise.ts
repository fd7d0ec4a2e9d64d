/**
 * The chain's watcher recognising refunds paid: once a tick, over the blocks it reads, the Transfer logs of
 * the refunds' tokens out of their receiving addresses to their refund addresses (one `eth_getLogs` per
 * hundred senders and receivers, only while a refund is ready to pay on the chain). A log pays a refund
 * only exactly: its token, its sender (the receiving address), its receiver (the refund address) and its
 * amount, mined after the refund became ready to pay; each log pays one refund (the oldest it fits) and
 * each refund one log. The refund then moves to `sent` with the transfer (unique on chain, hash and log
 * index).
 */
import { type ChainClient, type OutgoingTransferLog, readOutgoingTransfers } from '@checkout/chain';
import { type Database, listRefundTransfers, type RefundRow, type SecretBox } from '@checkout/db';
import type { Kysely } from 'kysely';
import { type Address, getAddress } from 'viem';
import { getBlock } from 'viem/actions';
import { changeRefund } from './change.ts';

/**
 * How far a block's timestamp may be behind the moment the refund became ready to pay: a block's time is
 * its producer's clock, in whole seconds, and this service's clock may run ahead of it.
 */
const clockSkewMs = 30_000;

/** A refund and the log that pays it. */
interface PaidRefund {
  refund: RefundRow;
  log: OutgoingTransferLog;
}

/**
 * Which logs pay which refunds (pure): exact token, sender, receiver and amount, mined (`minedAt`, epoch
 * ms of the log's block) no earlier than the refund became ready to pay (`updated_at`, less the clock
 * skew), not already paying one (`taken`, keys `<hash>:<log index>`); in chain order, each log to the
 * oldest refund it fits.
 * @internal
 */
export function matchRefundPayments(
  refunds: readonly RefundRow[],
  logs: readonly OutgoingTransferLog[],
  minedAt: ReadonlyMap<bigint, number>,
  taken: ReadonlySet<string>,
): PaidRefund[] {
  const open = [...refunds].sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
  const paid: PaidRefund[] = [];
  for (const log of logs) {
    if (taken.has(`${log.txHash.toLowerCase()}:${log.logIndex}`)) continue;
    const at = minedAt.get(log.blockNumber);
    const index = open.findIndex(
      (r) => fits(r, log) && at !== undefined && at >= r.updated_at.getTime() - clockSkewMs,
    );
    if (index < 0) continue;
    const [refund] = open.splice(index, 1);
    if (refund) paid.push({ refund, log });
  }
  return paid;
}

/** Whether the log is the refund's exact transfer (without its time). */
function fits(refund: RefundRow, log: OutgoingTransferLog): boolean {
  return (
    refund.refund_address !== null &&
    log.token.toLowerCase() === refund.token_address.toLowerCase() &&
    log.from.toLowerCase() === refund.from_address.toLowerCase() &&
    log.to.toLowerCase() === refund.refund_address.toLowerCase() &&
    log.amount === BigInt(refund.amount)
  );
}

/**
 * Reads `[fromBlock, toBlock]` for the chain's refunds ready to pay (`ready`, from `listRefundsReadyToPay`)
 * and moves each one paid to `sent`; how many were recognised. Nothing is asked of the chain without one.
 */
export async function recogniseRefundPayments(
  ctx: {
    db: Kysely<Database>;
    chain: ChainClient;
    deps: { secrets: SecretBox; publicBaseUrl: string };
  },
  ready: readonly RefundRow[],
  range: { fromBlock: bigint; toBlock: bigint },
): Promise<number> {
  const { db, chain } = ctx;
  const refunds = ready.filter((r) => r.refund_address);
  if (refunds.length === 0 || range.fromBlock > range.toBlock) return 0;
  const unique = (values: string[]) => [...new Set(values.map((v) => getAddress(v)))] as Address[];
  const logs = (
    await readOutgoingTransfers({
      client: chain.client,
      tokens: unique(refunds.map((r) => r.token_address)),
      from: unique(refunds.map((r) => r.from_address)),
      to: unique(refunds.map((r) => r.refund_address as string)),
      ...range,
    })
  ).filter((log) => refunds.some((r) => fits(r, log)));
  if (logs.length === 0) return 0;
  const taken = await listRefundTransfers(
    db,
    chain.chainId,
    logs.map((l) => l.txHash),
  );
  const minedAt = new Map<bigint, number>();
  for (const blockNumber of new Set(logs.map((l) => l.blockNumber))) {
    const block = await getBlock(chain.client, { blockNumber });
    minedAt.set(blockNumber, Number(block.timestamp) * 1000);
  }
  let recognised = 0;
  for (const { refund, log } of matchRefundPayments(refunds, logs, minedAt, taken)) {
    const sent = await changeRefund(db, ctx.deps, {
      refundId: refund.id,
      from: ['ready_to_pay'],
      to: 'sent',
      change: {
        tx_hash: log.txHash.toLowerCase(),
        log_index: log.logIndex,
        block_number: log.blockNumber.toString(),
        sent_at: new Date(),
      },
    });
    if (sent) recognised += 1;
  }
  return recognised;
}
