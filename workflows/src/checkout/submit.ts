/**
 * A shopper's transaction hash, submitted for a session: claimed durably first (one hash pays one checkout),
 * then handed to the session's workflow through its Update, which checks it at once. A hash Temporal or its
 * workers were not there to take stays claimed and shows as confirming; the reconciler hands it over later.
 */
import { ApiError, temporalUnavailable } from '@checkout/core';
import {
  type CheckoutSessionRow,
  claimTransaction,
  type Database,
  markSessionHashPending,
  markTransactionHandedOver,
  releaseTransaction,
} from '@checkout/db';
import { type Client, WorkflowUpdateFailedError } from '@temporalio/client';
import type { Kysely } from 'kysely';
import { checkoutRejections } from './shared.ts';
import { handHashToCheckout } from './start.ts';

/** `taken`: the workflow has the hash; `pending`: it is recorded and waits for a worker. */
export type SubmittedTransaction = 'taken' | 'pending';

/** Submits the hash for the session, or refuses it with the documented error. */
export async function submitCheckoutTransaction(
  deps: { db: Kysely<Database>; temporal: Client | undefined },
  session: Pick<CheckoutSessionRow, 'id' | 'chain_id' | 'expected_payment_id'>,
  txHash: string,
): Promise<SubmittedTransaction> {
  const temporal = deps.temporal;
  if (!temporal) throw temporalUnavailable('transactions cannot be checked');
  const hash = txHash.toLowerCase();
  // The claim is durable before Temporal hears of the hash: no other checkout can take the transfer,
  // and a hash Temporal or its workers were not there to take is handed over by the reconciler.
  const claim = await claimTransaction(deps.db, {
    chainId: session.chain_id,
    txHash: hash,
    sessionId: session.id,
    handedOver: false,
  });
  if (claim === 'other_session') {
    throw new ApiError('tx_already_used', 'This transaction already pays another checkout', {
      errors: [{ path: 'tx_hash', message: 'already pays another checkout' }],
    });
  }
  const target = { chainId: session.chain_id, txHash: hash, sessionId: session.id };
  const handover = await handHashToCheckout(temporal, session.expected_payment_id, hash);
  if (handover.outcome === 'refused') {
    if (claim === 'claimed') await releaseTransaction(deps.db, target);
    throw rejectionError(handover.error);
  }
  if (handover.outcome === 'taken') {
    await markTransactionHandedOver(deps.db, target);
    return 'taken';
  }
  // Recorded, not yet taken: the session shows the hash confirming while it waits for its workflow.
  await markSessionHashPending(deps.db, session.id, hash);
  if (handover.outcome === 'temporal_unavailable') {
    throw temporalUnavailable('the transaction is recorded and will be checked as soon as it is back');
  }
  return 'pending';
}

/** Maps a refused Update to the API's error. */
function rejectionError(error: unknown): ApiError {
  const message =
    error instanceof WorkflowUpdateFailedError ? ((error.cause as Error | undefined)?.message ?? '') : '';
  const known: Record<string, ApiError> = {
    [checkoutRejections.expired]: new ApiError('checkout_expired', 'This checkout has expired'),
    [checkoutRejections.closed]: new ApiError('checkout_closed', 'This checkout is already paid'),
    [checkoutRejections.otherHash]: new ApiError(
      'tx_already_submitted',
      'Another transaction was already submitted to this checkout',
      { errors: [{ path: 'tx_hash', message: 'differs from the one already submitted' }] },
    ),
    [checkoutRejections.rejectedHash]: new ApiError(
      'tx_rejected',
      'This transaction was checked and does not pay this checkout',
      { errors: [{ path: 'tx_hash', message: 'does not pay this checkout' }] },
    ),
    [checkoutRejections.malformed]: new ApiError('record_invalid', 'tx_hash is malformed', {
      errors: [{ path: 'tx_hash', message: 'must be a 0x-prefixed 32-byte transaction hash' }],
    }),
  };
  for (const [code, apiError] of Object.entries(known)) if (message.includes(code)) return apiError;
  if (error instanceof Error && /not found/i.test(error.message)) {
    return new ApiError('checkout_closed', 'This checkout is no longer open');
  }
  return new ApiError(
    'service_unavailable',
    'The workflow service (Temporal) did not take the transaction; retry',
    {
      cause: error,
    },
  );
}
