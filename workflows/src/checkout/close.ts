/**
 * Closing a shopper's attempt that was given up (the amount changed, another wallet, "Start again", or a
 * newer attempt of the same payer on the same open-amount product): it can take nothing any more, so a
 * later transfer of its payer is never booked to it by the closed-tab rules; it becomes an unmatched
 * transfer the merchant sees. A merchant's expected payment stays payable: its session is not closed.
 */
import { ApiError } from '@checkout/core';
import {
  type CheckoutSessionRow,
  closeSession,
  type Database,
  findExpectedPayment,
  findSession,
  listSupersededAttempts,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { queueWorkflowCall } from '../handOver/queueWorkflowCall.ts';
import { checkoutClosedSignal, checkoutWorkflowId } from './shared.ts';

/** Closes the session and queues the news for its workflow, which ends; undefined when it could not close. */
async function closeAttempt(
  db: Kysely<Database>,
  session: Pick<CheckoutSessionRow, 'id' | 'expected_payment_id'>,
): Promise<CheckoutSessionRow | undefined> {
  const closed = await closeSession(db, session.id);
  if (closed) {
    await queueWorkflowCall(db, {
      kind: 'signal',
      workflowType: 'checkoutSession',
      workflowId: checkoutWorkflowId(session.expected_payment_id),
      call: { args: [], signal: { name: checkoutClosedSignal.name, args: [] } },
    });
  }
  return closed;
}

/**
 * The shopper's element gave the attempt up: it is closed when it is a shopper's own (open-amount) attempt
 * still awaiting its payment. A paid session is a 409; one whose transaction is being checked, or a
 * merchant's expected payment, stays as it is. The session as it stands afterwards.
 */
export async function closeCheckoutSession(
  db: Kysely<Database>,
  session: CheckoutSessionRow,
): Promise<CheckoutSessionRow> {
  if (session.status === 'resolved' || session.status === 'failed') {
    throw new ApiError('checkout_already_paid', 'This checkout is already paid');
  }
  const expected = await findExpectedPayment(db, session.expected_payment_id);
  if (expected?.source === 'shopper') await closeAttempt(db, session);
  return (await findSession(db, session.id)) ?? session;
}

/**
 * Closes the payer's other attempts on the same open-amount product, which the attempt `sessionId`
 * supersedes: a closed tab says nothing, so the server does it.
 */
export async function closeSupersededAttempts(
  db: Kysely<Database>,
  input: { productId: string; senderAddress: string; sessionId: string },
): Promise<void> {
  const older = await listSupersededAttempts(db, {
    productId: input.productId,
    senderAddress: input.senderAddress,
    exceptSessionId: input.sessionId,
  });
  for (const session of older) await closeAttempt(db, session);
}
