/**
 * A resolved payment whose block a reorganisation took away (the chain's watcher stepped back and no longer
 * vouches for it): asked of the chain, and — only when the chain clearly shows another block at that height
 * — marked reversed (its transaction is gone) or moved to the block that holds it now. Each outcome is
 * announced once, in the transaction that records it: the signed webhook (`resolved_payment.reversed`, or
 * `resolved_payment.updated` for a move) and the `paymentReorg` workflow, which e-mails the merchant.
 */
import type { ChainClient } from '@checkout/chain';
import { webhookEvents } from '@checkout/core';
import {
  type Database,
  inTransaction,
  markPaymentReversed,
  movePaymentBlock,
  type ResolvedPaymentRow,
  type SecretBox,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { type Hash, TransactionReceiptNotFoundError } from 'viem';
import { queueWorkflowCall } from '../handOver/queueWorkflowCall.ts';
import { MerchantId, ProductId } from '../shared.ts';
import { queueProductEvent } from '../webhookDelivery/queueProductEvent.ts';
import { type PaymentReorgInput, paymentReorgWorkflowId } from './shared.ts';

/** What the chain says of a transaction's block now. */
export type Verdict = { outcome: 'reversed' } | { outcome: 'moved'; number: bigint; hash: string } | null;

/** Where a transaction was recorded: its hash, and the number and hash (lowercase) of its block. */
export interface RecordedPlace {
  txHash: string;
  blockNumber: string;
  blockHash: string;
}

/**
 * The chain's word on a recorded transaction: `reversed` when the provider is at or past its block, shows
 * another block there, and knows neither the transaction nor its receipt; `moved` when its receipt is in
 * another block that is canonical; null when it stands (or the provider cannot tell yet: lagging, or down).
 */
export async function chainVerdict(chain: ChainClient, place: RecordedPlace): Promise<Verdict> {
  const client = chain.client;
  const blockNumber = BigInt(place.blockNumber);
  const receipt = await client
    .getTransactionReceipt({ hash: place.txHash as Hash })
    .catch((error: unknown) => {
      if (error instanceof TransactionReceiptNotFoundError) return null;
      throw error;
    });
  if (receipt) {
    if (receipt.blockHash.toLowerCase() === place.blockHash) return null;
    const holding = await client.getBlock({ blockNumber: receipt.blockNumber });
    return holding.hash === receipt.blockHash
      ? { outcome: 'moved', number: receipt.blockNumber, hash: receipt.blockHash }
      : null;
  }
  const head = await client.getBlockNumber({ cacheTime: 0 });
  if (head < blockNumber) return null;
  const there = await client.getBlock({ blockNumber });
  return there.hash.toLowerCase() === place.blockHash ? null : { outcome: 'reversed' };
}

/** Records what the chain says of the payment and queues its announcements; whether anything changed. */
export async function recordVerdict(
  db: Kysely<Database>,
  secrets: SecretBox,
  row: ResolvedPaymentRow,
  verdict: NonNullable<Verdict>,
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const updated =
      verdict.outcome === 'reversed'
        ? await markPaymentReversed(trx, row.id)
        : await movePaymentBlock(trx, row.id, { number: verdict.number, hash: verdict.hash });
    if (!updated) return false;
    const product = await queueProductEvent(trx, secrets, {
      payment: updated,
      event:
        verdict.outcome === 'reversed'
          ? webhookEvents.resolvedPaymentReversed
          : webhookEvents.resolvedPaymentUpdated,
      subjectId: `${updated.id}:reorg:${row.block_hash}`,
    });
    const input: PaymentReorgInput = {
      resolvedPaymentId: updated.id,
      outcome: verdict.outcome,
      blockNumber: verdict.outcome === 'moved' ? verdict.number.toString() : (row.block_number as string),
      blockHash: row.block_hash as string,
    };
    await queueWorkflowCall(trx, {
      kind: 'start',
      workflowType: 'paymentReorg',
      workflowId: paymentReorgWorkflowId(input),
      call: {
        args: [input],
        once: true,
        searchAttributes: {
          ...(product ? { [MerchantId.name]: product.merchant_id } : {}),
          [ProductId.name]: updated.product_id,
        },
        staticSummary: `Payment ${verdict.outcome} by a reorganisation · ${updated.tx_id.slice(0, 10)}…`,
        staticDetails: `resolved payment: ${updated.id}\nleft block ${row.block_number} (${row.block_hash})`,
      },
    });
    return true;
  });
}
