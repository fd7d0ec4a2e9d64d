/**
 * A sent refund on its way to `confirmed`: its transaction is looked up on the chain and, once it has the
 * chain's confirmations (the including block counts, as for checkouts), the refund is confirmed in one
 * transaction with what it gives back — for a resolved payment, `refunded_amount` grows by every transfer
 * recorded against it (`paid_amount`) and the product's webhook gets `resolved_payment.updated`. A
 * transaction the chain no longer knows at all (a reorganisation dropped it) puts the refund back to
 * `ready_to_pay` with that transfer forgotten, to be recognised again when paid.
 */
import type { ChainClient } from '@checkout/chain';
import { getConfirmations } from '@checkout/chain';
import { webhookEvents } from '@checkout/core';
import {
  addRefundedAmount,
  type Database,
  findResolvedPayment,
  forgetRefundTransfers,
  inTransaction,
  listTransfersOfRefund,
  moveRefund,
  type RefundRow,
  type SecretBox,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import {
  decodeEventLog,
  erc20Abi,
  type Hash,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem';
import { queueProductEvent } from '../webhookDelivery/queueProductEvent.ts';
import { changeRefund } from './change.ts';

/** Where a sent refund's transaction stands. */
export type RefundConfirmation =
  | { status: 'sent'; confirmations: number; required: number; waitMs: number }
  | { status: 'confirmed' | 'ready_to_pay' | 'moved_on' };

/** What the check needs. */
export interface RefundConfirmDeps {
  db: Kysely<Database>;
  secrets: SecretBox;
  publicBaseUrl: string;
  /** The shortest wait between two looks (CHAIN_POLL_INTERVAL_MS). */
  pollIntervalMs: number;
}

/** The block time of a chain whose block time is not configured. */
const defaultBlockTimeMs = 2_000;
/** The longest wait between two looks at a sent refund's transaction. */
const maxWaitMs = 5 * 60_000;

/** Looks at a sent refund's transaction once, and confirms the refund when it is deep enough. */
export async function checkSentRefund(
  deps: RefundConfirmDeps,
  chain: ChainClient,
  row: RefundRow,
  /** `holdConfirmation`: a part payment of it is not deep enough yet, so it is not confirmed on this look. */
  options: { holdConfirmation?: boolean } = {},
): Promise<RefundConfirmation> {
  const client = chain.client;
  const hash = row.tx_hash as Hash;
  const required = chain.confirmations;
  const waiting = (confirmations: number) => ({
    status: 'sent' as const,
    confirmations,
    required,
    waitMs: Math.min(
      maxWaitMs,
      Math.max(deps.pollIntervalMs, (required - confirmations) * (chain.blockTimeMs ?? defaultBlockTimeMs)),
    ),
  });
  const receipt = await client.getTransactionReceipt({ hash }).catch((error: unknown) => {
    if (error instanceof TransactionReceiptNotFoundError) return null;
    throw error;
  });
  if (!receipt) {
    // Pending again (its block was replaced): it is mined anew. Unknown altogether: it left the chain.
    const known = await client.getTransaction({ hash }).catch((error: unknown) => {
      if (error instanceof TransactionNotFoundError) return null;
      throw error;
    });
    if (known) return waiting(0);
    const back = await inTransaction(deps.db, async (trx) => {
      const moved = await changeRefund(trx, deps, {
        refundId: row.id,
        from: ['sent'],
        to: 'ready_to_pay',
        change: { tx_hash: null, log_index: null, block_number: null, sent_at: null },
      });
      if (moved) await forgetRefundTransfers(trx, row.id, hash);
      return moved;
    });
    return { status: back ? 'ready_to_pay' : 'moved_on' };
  }
  const units = await completingUnits(deps.db, row);
  const paying = receipt.status === 'success' ? payingLog(row, units, receipt.logs) : undefined;
  if (!paying) return waiting(0);
  if (receipt.blockNumber.toString() !== row.block_number || paying.logIndex !== row.log_index) {
    // Mined again in another block: the same transfer, where it is now.
    await moveRefund(
      deps.db,
      row.id,
      { from: ['sent'], to: 'sent' },
      {
        block_number: receipt.blockNumber.toString(),
        log_index: paying.logIndex,
      },
    );
  }
  const confirmations = await getConfirmations({ client, blockNumber: receipt.blockNumber });
  if (confirmations < required || options.holdConfirmation) return waiting(confirmations);
  const confirmed = await confirmRefund(deps, row.id);
  return { status: confirmed ? 'confirmed' : 'moved_on' };
}

/** Base units of the transfer that completed the refund (as recorded against it), else its amount. */
async function completingUnits(db: Kysely<Database>, row: RefundRow): Promise<bigint> {
  const recorded = (await listTransfersOfRefund(db, row.id)).find(
    (t) => t.tx_hash === row.tx_hash?.toLowerCase(),
  );
  return BigInt(recorded?.amount ?? row.amount);
}

/** The receipt's Transfer log of `units` from the receiving address to the refund address, if any. */
function payingLog(
  row: RefundRow,
  units: bigint,
  logs: ReadonlyArray<{ address: string; topics: readonly Hash[]; data: Hash; logIndex: number }>,
): { logIndex: number } | undefined {
  for (const log of logs) {
    if (log.address.toLowerCase() !== row.token_address.toLowerCase()) continue;
    try {
      const event = decodeEventLog({
        abi: erc20Abi,
        eventName: 'Transfer',
        topics: log.topics as [Hash, ...Hash[]],
        data: log.data,
      });
      if (
        event.args.from.toLowerCase() === row.from_address.toLowerCase() &&
        event.args.to.toLowerCase() === row.refund_address?.toLowerCase() &&
        event.args.value === units
      ) {
        return { logIndex: log.logIndex };
      }
    } catch {
      // Another event of the token.
    }
  }
  return undefined;
}

/**
 * Confirms a sent refund and, for a resolved payment's refund, adds what it gave back and queues the
 * payment's `resolved_payment.updated` webhook (subject `<payment id>:refund:<refund id>`), in one
 * transaction; false when the refund was no longer sent.
 */
async function confirmRefund(deps: RefundConfirmDeps, refundId: string): Promise<boolean> {
  return inTransaction(deps.db, async (trx) => {
    const row = await changeRefund(trx, deps, {
      refundId,
      to: 'confirmed',
      change: { confirmed_at: new Date() },
    });
    if (!row) return false;
    if (!row.resolved_payment_id) return true;
    // What it gave back: every transfer recorded against it (more than asked when overpaid).
    await addRefundedAmount(trx, row.resolved_payment_id, BigInt(row.paid_amount));
    const payment = await findResolvedPayment(trx, row.resolved_payment_id);
    if (payment) {
      await queueProductEvent(trx, deps.secrets, {
        payment,
        event: webhookEvents.resolvedPaymentUpdated,
        subjectId: `${payment.id}:refund:${row.id}`,
      });
    }
    return true;
  });
}
