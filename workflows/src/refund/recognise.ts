/**
 * Refunds recognised as paid: while a refund is ready to pay, the chain's watcher reads, over the blocks
 * it reads, the transfers out it waits for (`awaitedRefundPayments`: the refunds' tokens out of their
 * receiving addresses to their refund addresses, of any amount; one `eth_getLogs` per hundred senders and
 * receivers) and hands them here (the reaction table, workflows/src/reactions.ts). A log mined after the
 * refund became ready to pay, in its token, from its receiving address to its refund address, is recorded
 * against it whatever its amount (`refund_transfers`, once: unique on chain, hash and log index): a part
 * payment leaves the rest due, told to the merchant (`refund.updated`, the workflow's e-mail) and asked by the
 * pay page; once they add up to the amount or more, the refund moves to `sent` with the log that completed
 * it, an overpayment named. Each log goes to one refund: the oldest that still needs exactly its amount,
 * else the oldest it fits.
 */
import type { OutgoingTransferLog } from '@checkout/chain';
import {
  type Database,
  inTransaction,
  listRefundsReadyToPay,
  listRefundTransfers,
  type RefundRow,
  recordRefundTransfer,
  type SecretBox,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { changeRefund, noteRefundPartPayment } from './change.ts';

/**
 * How far a block's timestamp may be behind the moment the refund became ready to pay: a block's time is
 * its producer's clock, in whole seconds, and this service's clock may run ahead of it.
 */
const clockSkewMs = 30_000;

/** A refund and a log that pays it, wholly or in part. */
interface PaidRefund {
  refund: RefundRow;
  log: OutgoingTransferLog;
}

/**
 * Which logs pay which refunds (pure): exact token, sender and receiver, mined (`minedAt`, epoch ms of the
 * log's block) no earlier than the refund became ready to pay (`updated_at`, less the clock skew), not
 * already paying one (`taken`, keys `<hash>:<log index>`); in chain order, each log to the oldest refund
 * still due exactly its amount, else to the oldest it fits. A refund paid in full takes no further log.
 * @internal
 */
export function matchRefundPayments(
  refunds: readonly RefundRow[],
  logs: readonly OutgoingTransferLog[],
  minedAt: ReadonlyMap<bigint, number>,
  taken: ReadonlySet<string>,
): PaidRefund[] {
  const open = [...refunds].sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
  const due = new Map(open.map((r) => [r.id, BigInt(r.amount) - BigInt(r.paid_amount)]));
  const paid: PaidRefund[] = [];
  for (const log of logs) {
    if (taken.has(`${log.txHash.toLowerCase()}:${log.logIndex}`)) continue;
    const at = minedAt.get(log.blockNumber);
    const candidates = open.filter(
      (r) =>
        fits(r, log) &&
        (due.get(r.id) ?? 0n) > 0n &&
        at !== undefined &&
        at >= r.updated_at.getTime() - clockSkewMs,
    );
    const refund = candidates.find((r) => due.get(r.id) === log.amount) ?? candidates[0];
    if (!refund) continue;
    due.set(refund.id, (due.get(refund.id) ?? 0n) - log.amount);
    paid.push({ refund, log });
  }
  return paid;
}

/** Whether the log goes from the refund's receiving address to its refund address in its token (any amount). */
function fits(refund: RefundRow, log: OutgoingTransferLog): boolean {
  return (
    refund.refund_address !== null &&
    log.token.toLowerCase() === refund.token_address.toLowerCase() &&
    log.from.toLowerCase() === refund.from_address.toLowerCase() &&
    log.to.toLowerCase() === refund.refund_address.toLowerCase()
  );
}

/**
 * The transfers out the chain's refunds ready to pay wait for: their token, sender (the receiving address)
 * and refund address, of any amount. The watcher reads them over its blocks while there are any.
 */
export async function awaitedRefundPayments(
  db: Kysely<Database>,
  chainId: number,
): Promise<Array<{ token: string; from: string; to: string }>> {
  return (await listRefundsReadyToPay(db, chainId)).flatMap((r) =>
    r.refund_address === null ? [] : [{ token: r.token_address, from: r.from_address, to: r.refund_address }],
  );
}

/**
 * The refunds' reaction to transfers out the watcher read as they were awaited (each with its block's
 * time): each is recorded against the refund ready to pay it goes to; a refund paid in full moves to `sent`,
 * one paid in part is announced with what is still due. How many transfers were recorded.
 */
export async function recogniseRefundPayments(
  db: Kysely<Database>,
  deps: { secrets: SecretBox; publicBaseUrl: string },
  chainId: number,
  transfers: ReadonlyArray<OutgoingTransferLog & { minedAt: number }>,
): Promise<number> {
  const refunds = (await listRefundsReadyToPay(db, chainId)).filter((r) => r.refund_address);
  const logs = transfers.filter((log) => refunds.some((r) => fits(r, log)));
  if (logs.length === 0) return 0;
  const taken = await listRefundTransfers(
    db,
    chainId,
    logs.map((l) => l.txHash),
  );
  const minedAt = new Map(logs.map((l) => [l.blockNumber, l.minedAt] as const));
  let recognised = 0;
  for (const { refund, log } of matchRefundPayments(refunds, logs, minedAt, taken)) {
    const recorded = await inTransaction(db, async (trx) => {
      const row = await recordRefundTransfer(trx, refund.id, {
        chainId,
        txHash: log.txHash,
        logIndex: log.logIndex,
        blockNumber: log.blockNumber,
        amount: log.amount,
      });
      if (!row) return false;
      if (BigInt(row.paid_amount) < BigInt(row.amount)) {
        await noteRefundPartPayment(trx, deps, row);
        return true;
      }
      const sent = await changeRefund(trx, deps, {
        refundId: row.id,
        from: ['ready_to_pay'],
        to: 'sent',
        change: {
          tx_hash: log.txHash.toLowerCase(),
          log_index: log.logIndex,
          block_number: log.blockNumber.toString(),
          sent_at: new Date(),
        },
      });
      return sent !== undefined;
    });
    if (recorded) recognised += 1;
  }
  return recognised;
}
