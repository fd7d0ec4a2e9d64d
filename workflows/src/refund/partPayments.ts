/**
 * A refund's part payments (transfers of another amount recorded against it, `refund_transfers`) looked at
 * again until each has the chain's confirmations, as the transfer that completes a refund is (confirm.ts).
 * One mined again in another block is followed there. One the chain no longer knows at all (a
 * reorganisation took it away), while the chain is at or past its block, is forgotten in one transaction:
 * taken off what the refund was paid, so its amount is due again, with the `refund.updated` webhook (subject
 * `<refund id>:part_gone:<tx hash>`); a sent refund whose completing transfer it preceded goes back to
 * `ready_to_pay` (the completing transfer stays counted), to be completed when the rest is paid again.
 */
import { type ChainClient, getConfirmations } from '@checkout/chain';
import {
  type Database,
  findRefundById,
  forgetRefundTransfers,
  inTransaction,
  listTransfersOfRefund,
  moveRefundTransfer,
  type RefundRow,
  type SecretBox,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { type Hash, TransactionNotFoundError, TransactionReceiptNotFoundError } from 'viem';
import { getBlockNumber } from 'viem/actions';
import { queueProductEvent } from '../webhookDelivery/queueProductEvent.ts';
import { changeRefund, signalRefund } from './change.ts';

/** Where a refund's part payments stand. */
export interface PartPaymentsCheck {
  /** Part payments not yet as deep as the chain's confirmations (0: none left to look at). */
  unsettled: number;
  /** Whether one left the chain and was forgotten. */
  forgotten: boolean;
  /** When to look again while some are unsettled. */
  waitMs: number;
}

/** What the check needs. */
export interface PartPaymentsDeps {
  db: Kysely<Database>;
  secrets: SecretBox;
  publicBaseUrl: string;
  /** The shortest wait between two looks (CHAIN_POLL_INTERVAL_MS). */
  pollIntervalMs: number;
}

/** The block time of a chain whose block time is not configured. */
const defaultBlockTimeMs = 2_000;

/** Looks once at each part payment of a refund (not the transfer that completed it). */
export async function checkPartPayments(
  deps: PartPaymentsDeps,
  chain: ChainClient,
  row: RefundRow,
): Promise<PartPaymentsCheck> {
  const client = chain.client;
  const required = chain.confirmations;
  const head = await getBlockNumber(client, { cacheTime: 0 });
  let unsettled = 0;
  let fewest = required;
  for (const part of await listTransfersOfRefund(deps.db, row.id)) {
    if (part.tx_hash === row.tx_hash?.toLowerCase()) continue;
    const hash = part.tx_hash as Hash;
    const receipt = await client.getTransactionReceipt({ hash }).catch((error: unknown) => {
      if (error instanceof TransactionReceiptNotFoundError) return null;
      throw error;
    });
    if (receipt) {
      if (receipt.blockNumber.toString() !== part.block_number) {
        await moveRefundTransfer(deps.db, {
          refundId: row.id,
          txHash: hash,
          blockNumber: receipt.blockNumber,
        });
      }
      const confirmations = await getConfirmations({
        client,
        blockNumber: receipt.blockNumber,
        latestBlockNumber: head,
      });
      if (confirmations < required) {
        unsettled++;
        fewest = Math.min(fewest, confirmations);
      }
      continue;
    }
    // Pending again, or a provider not yet at its block: looked at again. Unknown altogether: it left the chain.
    const known = await client.getTransaction({ hash }).catch((error: unknown) => {
      if (error instanceof TransactionNotFoundError) return null;
      throw error;
    });
    if (known || head < BigInt(part.block_number)) {
      unsettled++;
      fewest = 0;
      continue;
    }
    await forgetPart(deps, row, hash);
    return { unsettled: 0, forgotten: true, waitMs: 0 };
  }
  const waitMs = Math.max(
    deps.pollIntervalMs,
    (required - fewest) * (chain.blockTimeMs ?? defaultBlockTimeMs),
  );
  return { unsettled, forgotten: false, waitMs };
}

/** The refund ended (confirmed, canceled, expired) before its part payment was forgotten: nothing changes. */
class RefundEnded extends Error {}

/**
 * Forgets a part payment that left the chain, and tells of it; a sent refund is ready to pay again. The
 * refund's row is locked by the forgetting, so its status read after is the latest; an ended refund is left
 * as it is.
 */
async function forgetPart(deps: PartPaymentsDeps, row: RefundRow, hash: Hash): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    await forgetRefundTransfers(trx, row.id, hash);
    const locked = await findRefundById(trx, row.id);
    if (locked?.status === 'sent') {
      await changeRefund(trx, deps, {
        refundId: row.id,
        from: ['sent'],
        to: 'ready_to_pay',
        change: { tx_hash: null, log_index: null, block_number: null, sent_at: null },
      });
    } else if (locked?.status !== 'ready_to_pay') throw new RefundEnded();
    const now = await findRefundById(trx, row.id);
    if (now) {
      await queueProductEvent(trx, deps.secrets, {
        refund: now,
        publicBaseUrl: deps.publicBaseUrl,
        subjectId: `${row.id}:part_gone:${hash.toLowerCase()}`,
      });
    }
    await signalRefund(trx, row.id);
  }).catch((error: unknown) => {
    if (!(error instanceof RefundEnded)) throw error;
  });
}
