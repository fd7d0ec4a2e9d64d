/**
 * What a merchant does with an unmatched transfer (the domain steps of its routes): list them, attach one to
 * an expected payment (its checkout records it as its payment) or to a resolved payment (a top-up), or
 * dismiss it with a note. A refund is its own step (refunds family).
 */
import { ApiError, percentDifference, type UnmatchedTransfer, webhookEvents } from '@checkout/core';
import {
  addTopUp,
  assignUnmatchedClaim,
  type Database,
  type WalletScope as DbWalletScope,
  findMerchantExpectedPayment,
  findMerchantResolvedPayment,
  findSessionByExpectedPayment,
  inTransaction,
  listNearSessions,
  listUnmatchedTransfers,
  presentUnmatchedTransfer,
  type SecretBox,
  settleUnmatchedTransfer,
  type UnmatchedTransferFilter,
  type UnmatchedTransferRow,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { attachTransferSignal, checkoutWorkflowId } from '../checkout/shared.ts';
import { type SessionWindows, scanWindowEnd } from '../checkout/start.ts';
import { queueWorkflowCall } from '../handOver/queueWorkflowCall.ts';
import { queueProductEvent } from '../webhookDelivery/queueProductEvent.ts';
import { queueUnmatchedChanged } from './follow.ts';
import { announcePaidTwice } from './paidTwice.ts';

/** The merchant's wallet the steps act in (a test key's: only test networks' records). */
export interface WalletScope extends DbWalletScope {
  /** The wallet's address: the receiving address of its transfers. */
  address: string;
}

/** Unmatched transfers with the sessions they arrived near, as the API shows them. */
export async function presentUnmatched(
  db: Kysely<Database>,
  rows: readonly UnmatchedTransferRow[],
): Promise<UnmatchedTransfer[]> {
  const near = await listNearSessions(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentUnmatchedTransfer(r, near.get(r.id) ?? []));
}

/** The wallet's unmatched transfers, newest first. */
export async function listWalletUnmatched(
  db: Kysely<Database>,
  scope: WalletScope,
  filter: UnmatchedTransferFilter,
): Promise<UnmatchedTransfer[]> {
  const rows = await listUnmatchedTransfers(
    db,
    { merchantId: scope.merchantId, receivingAddress: scope.address, testOnly: scope.testOnly },
    filter,
  );
  return presentUnmatched(db, rows);
}

const notOpen = (row: UnmatchedTransferRow) =>
  new ApiError('conflict', `This unmatched transfer is already ${row.status}`);

/** Dismisses an open unmatched transfer with the merchant's note. */
export async function dismissUnmatched(
  db: Kysely<Database>,
  deps: { secrets: SecretBox },
  row: UnmatchedTransferRow,
  note: string,
): Promise<UnmatchedTransferRow> {
  return inTransaction(db, async (trx) => {
    const settled = await settleUnmatchedTransfer(trx, row.id, { status: 'dismissed', note });
    if (!settled) throw notOpen(row);
    await announcePaidTwice(trx, deps.secrets, row, 'cleared');
    await queueUnmatchedChanged(trx, [row.id]);
    return settled;
  });
}

/**
 * Attaches an open unmatched transfer to an open expected payment of the wallet: the transfer's claim goes to
 * the expected payment's session, whose checkout records it as its payment (webhook and e-mails as for any
 * payment). The checkout must still be open: awaiting its payment (or expired within its window), into the
 * address and on the chain the transfer reached.
 */
export async function attachToExpectedPayment(
  db: Kysely<Database>,
  deps: { windows: SessionWindows; secrets: SecretBox },
  input: { scope: WalletScope; row: UnmatchedTransferRow; expectedPaymentId: string },
): Promise<UnmatchedTransferRow> {
  const { row, scope } = input;
  if (row.status !== 'open') throw notOpen(row);
  const path = 'expected_payment_id';
  const expected = await findMerchantExpectedPayment(db, scope, input.expectedPaymentId);
  if (!expected)
    throw new ApiError('record_invalid', 'No such expected payment', {
      errors: [{ path, message: 'does not exist' }],
    });
  const session = await findSessionByExpectedPayment(db, expected.id);
  const open =
    session !== undefined &&
    (session.status === 'awaiting_payment' || session.status === 'expired') &&
    session.tx_hash === null &&
    scanWindowEnd(deps.windows, session.expires_at, session.created_at) > Date.now();
  if (!session || !open) {
    throw new ApiError(
      'conflict',
      `The expected payment's checkout is not open to a payment (it is ${session?.status ?? 'not opened'}); refund or dismiss the transfer instead`,
      {
        errors: [{ path, message: 'has no checkout open to a payment' }],
      },
    );
  }
  if (
    session.chain_id !== row.chain_id ||
    session.receiving_address.toLowerCase() !== row.receiving_address
  ) {
    throw new ApiError(
      'record_invalid',
      'The expected payment is paid on another chain or into another address',
      {
        errors: [{ path, message: 'is paid elsewhere' }],
      },
    );
  }
  return inTransaction(db, async (trx) => {
    const settled = await settleUnmatchedTransfer(trx, row.id, {
      status: 'attached',
      expectedPaymentId: expected.id,
    });
    if (!settled) throw notOpen(row);
    await announcePaidTwice(trx, deps.secrets, row, 'cleared');
    await assignUnmatchedClaim(trx, { chainId: row.chain_id, txHash: row.tx_hash, sessionId: session.id });
    await queueWorkflowCall(trx, {
      kind: 'signal',
      workflowType: 'checkoutSession',
      workflowId: checkoutWorkflowId(expected.id),
      call: { args: [], signal: { name: attachTransferSignal.name, args: [row.tx_hash] } },
    });
    await queueUnmatchedChanged(trx, [row.id]);
    return settled;
  });
}

/**
 * Attaches an open unmatched transfer to a resolved payment of the wallet as a top-up: what the payment
 * received grows by it (same token), its `amount_difference` and `exception_status` follow, and the product's
 * webhook gets `resolved_payment.updated`.
 */
export async function attachToResolvedPayment(
  db: Kysely<Database>,
  deps: { secrets: SecretBox },
  input: { scope: WalletScope; row: UnmatchedTransferRow; resolvedPaymentId: string },
): Promise<UnmatchedTransferRow> {
  const { row, scope } = input;
  if (row.status !== 'open') throw notOpen(row);
  const path = 'resolved_payment_id';
  const payment = await findMerchantResolvedPayment(db, scope, input.resolvedPaymentId);
  if (!payment)
    throw new ApiError('record_invalid', 'No such resolved payment', {
      errors: [{ path, message: 'does not exist' }],
    });
  if (payment.tx_failure) {
    throw new ApiError('record_invalid', 'A failed payment takes no top-up', {
      errors: [{ path, message: 'is a failed payment' }],
    });
  }
  if (
    payment.chain_id !== row.chain_id ||
    payment.received_token.address.toLowerCase() !== row.token_address
  ) {
    throw new ApiError(
      'record_invalid',
      `A top-up must be the payment's own token (${payment.received_token.symbol}) on its chain`,
      {
        errors: [{ path, message: 'was paid in another token or on another chain' }],
      },
    );
  }
  return inTransaction(db, async (trx) => {
    const settled = await settleUnmatchedTransfer(trx, row.id, {
      status: 'attached',
      resolvedPaymentId: payment.id,
    });
    if (!settled) throw notOpen(row);
    const expected =
      BigInt(payment.expected_token_amount) * 10n ** BigInt(payment.received_token.decimal_count);
    const updated = await addTopUp(trx, payment.id, {
      amount: BigInt(row.amount),
      amountDifference: (received) =>
        percentDifference(expected, received * 10n ** BigInt(payment.expected_token.decimal_count)),
    });
    await queueProductEvent(trx, deps.secrets, {
      payment: updated,
      event: webhookEvents.resolvedPaymentUpdated,
      subjectId: `${updated.id}:top_up:${row.id}`,
    });
    // A duplicate of another payment, attached here: that payment is no longer paid twice.
    if (row.resolved_payment_id !== updated.id) await announcePaidTwice(trx, deps.secrets, row, 'cleared');
    await queueUnmatchedChanged(trx, [row.id]);
    return settled;
  });
}
