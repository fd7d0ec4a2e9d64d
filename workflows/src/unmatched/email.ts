/** The merchant's e-mails of unmatched transfers: in batches per recipient, each claimed before it is sent. */
import {
  findProductById,
  findUnmatchedTransferById,
  listNearSessions,
  listUnmatchedMailBatch,
  presentUnmatchedTransfer,
  reserveUnmatchedMailBatch,
} from '@checkout/db';
import { unmatchedTransferNotice, unmatchedTransfersNotice } from '@checkout/mail';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { sendMailOnce } from '../mailOnce.ts';
import type { UnmatchedActivityDeps } from './activities.ts';

/** The least time between two e-mails about unmatched transfers to one recipient, by default: 5 minutes. */
const defaultUnmatchedEmailIntervalMs = 5 * 60_000;

/**
 * E-mails the merchant (the nearest product's address) of an unmatched transfer, in a batch with the
 * others waiting for an e-mail to that address: the transfer joins the next batch (reserved before it is
 * sent, claimed by its key), at most one a recipient per `unmatchedEmailIntervalMs`; while the last one is
 * more recent, how long to wait before asking again. A transfer in a batch already is sent with it (once).
 */
export async function emailUnmatchedTransfer(
  deps: UnmatchedActivityDeps,
  input: { unmatchedTransferId: string },
): Promise<{ sent: number; waitMs?: number }> {
  const db = deps.db.kysely;
  const row = await findUnmatchedTransferById(db, input.unmatchedTransferId);
  if (!row)
    throw ApplicationFailure.nonRetryable('unmatched transfer not found', 'unmatched_transfer_not_found');
  const product = row.product_id ? await findProductById(db, row.product_id) : undefined;
  if (!product) return { sent: 0 };
  const mailer = deps.mailer;
  if (!mailer) {
    Context.current().log.warn('No SMTP server is configured: the unmatched transfer is not e-mailed', input);
    return { sent: 0 };
  }
  let batch = row.mail_batch;
  if (batch === null) {
    const reserved = await reserveUnmatchedMailBatch(db, {
      merchantId: row.merchant_id,
      recipient: product.email,
      transferId: row.id,
      intervalMs: deps.checkout.unmatchedEmailIntervalMs ?? defaultUnmatchedEmailIntervalMs,
    });
    if ('waitMs' in reserved) return { sent: 0, waitMs: reserved.waitMs };
    batch = reserved.batch;
  }
  const rows = await listUnmatchedMailBatch(db, batch);
  const near = await listNearSessions(
    db,
    rows.map((r) => r.id),
  );
  const chainName = (chainId: number) => deps.tokens.chainById(chainId)?.name ?? `chain ${chainId}`;
  const shown = rows.map((r) => ({
    transfer: presentUnmatchedTransfer(r, near.get(r.id) ?? []),
    chainName: chainName(r.chain_id),
  }));
  const [first] = rows;
  if (!first) return { sent: 0 };
  const notice =
    shown.length === 1 && shown[0]
      ? unmatchedTransferNotice({ ...shown[0], productName: product.name })
      : unmatchedTransfersNotice({ transfers: shown, productName: product.name });
  const sent = await sendMailOnce(deps, mailer, {
    effectKey: batch,
    merchantId: product.merchant_id,
    addressId: product.address_id,
    kind: 'unmatched_transfer',
    recipient: 'merchant',
    unmatchedTransferId: first.id,
    message: {
      to: product.email,
      ...notice,
      messageId: `<${first.id}.${rows.length > 1 ? `${rows.length}.` : ''}unmatched@stable-checkout>`,
    },
  });
  return { sent };
}
