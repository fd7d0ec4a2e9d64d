/**
 * Closing a shopper's attempt that was given up (the amount changed, another wallet, "Start again"): it can
 * take nothing any more, so a later transfer carrying its reference becomes an unmatched transfer the
 * merchant sees. Only its opener closes it (the secret it was given when it opened): nothing else closes an
 * attempt, however many others name the same wallet. A merchant's expected payment stays payable: its
 * session is not closed.
 */
import { ApiError } from '@checkout/core';
import {
  type CheckoutSessionRow,
  closeSession,
  type Database,
  findExpectedPayment,
  findSession,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { queueWorkflowCall } from '../handOver/queueWorkflowCall.ts';
import { isOpenerSecret } from './openerSecret.ts';
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
  /** The `X-Client-Secret` the request carried. */
  givenSecret: string | undefined,
): Promise<CheckoutSessionRow> {
  if (!isOpenerSecret(session, givenSecret)) {
    throw new ApiError('forbidden', 'Only the shopper who opened this checkout can close it', {
      errors: [
        {
          path: 'X-Client-Secret',
          message: givenSecret ? 'is not the secret this checkout was opened with' : 'is required',
        },
      ],
    });
  }
  if (session.status === 'resolved' || session.status === 'failed') {
    throw new ApiError('checkout_already_paid', 'This checkout is already paid');
  }
  const expected = await findExpectedPayment(db, session.expected_payment_id);
  if (expected?.source === 'shopper') await closeAttempt(db, session);
  return (await findSession(db, session.id)) ?? session;
}
