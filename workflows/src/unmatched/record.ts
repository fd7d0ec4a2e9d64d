/**
 * Recording a transfer no session took, once: its hash is claimed for no session (so no session takes it
 * later), the record keeps the sessions it arrived near, and its announcements are queued in the same
 * transaction — the `unmatched_transfer.created` webhook of the nearest product (when it sends webhooks) and
 * the `unmatchedTransfer` workflow, which e-mails the merchant and follows what becomes of it — unless it is below the notice threshold.
 */
import { randomUUID } from 'node:crypto';
import {
  type ChainTransferRow,
  type CheckoutSessionRow,
  claimForUnmatched,
  type Database,
  insertUnmatchedTransfer,
  inTransaction,
  type SecretBox,
  type StoredToken,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { queueProductEvent } from '../webhookDelivery/queueProductEvent.ts';
import type { Classification } from './classify.ts';
import { queueUnmatchedStart } from './follow.ts';
import { announcePaidTwice } from './paidTwice.ts';
import { unmatchedTransferEvent } from './shared.ts';

/** What recording a transfer needs: it, its token, its merchant, and what the classification decided. */
export interface UnmatchedRecording {
  transfer: ChainTransferRow;
  token: StoredToken;
  merchantId: string;
  classification: Classification;
  /** The rows of the sessions it arrived near (`classification.near`), nearest first. */
  near: CheckoutSessionRow[];
  /** The session whose deposit address it arrived at: it is listed under that session's receiving address. */
  depositSession?: { id: string; receivingAddress: string };
  /**
   * False for a transfer below `UNMATCHED_NOTIFY_MIN_AMOUNT`: recorded and listed, but neither webhooked nor
   * e-mailed (thirty transfers of one base unit from thirty addresses are not thirty e-mails).
   */
  notify?: boolean;
}

/** Records the transfer and queues its announcements; its id, or null when a session claimed it first. */
export async function recordUnmatchedTransfer(
  db: Kysely<Database>,
  secrets: SecretBox,
  input: UnmatchedRecording,
): Promise<string | null> {
  const { transfer, classification, near } = input;
  return inTransaction(db, async (trx) => {
    if (!(await claimForUnmatched(trx, { chainId: transfer.chain_id, txHash: transfer.tx_hash })))
      return null;
    const productId = near[0]?.product_id ?? null;
    const row = await insertUnmatchedTransfer(trx, {
      id: randomUUID(),
      merchantId: input.merchantId,
      productId,
      transfer,
      token: input.token,
      kind: classification.kind,
      resolvedPaymentId: classification.resolvedPaymentId,
      nearSessionIds: near.map((s) => s.id),
      ...(input.depositSession ? { depositSession: input.depositSession } : {}),
      mailWanted: input.notify !== false,
    });
    if (!row) return null;
    await announcePaidTwice(trx, secrets, row, 'set');
    if (input.notify === false) return row.id;
    await queueProductEvent(trx, secrets, {
      transfer: row,
      near,
      event: unmatchedTransferEvent,
      subjectId: row.id,
    });
    await queueUnmatchedStart(trx, row);
    return row.id;
  });
}
