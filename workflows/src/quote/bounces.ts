/**
 * What a merchant may change on an offramp after it was added to a quote: its reference while it is
 * `initiated`, and, once its payout bounced (research §7), one request to pay it out again to another
 * approved detail of the same currency or to refund its tokens. A request is recorded on the offramp with the
 * call that hands it to the quote's workflow, which applies it.
 */
import { ApiError, recordInvalid } from '@checkout/core';
import {
  type Database,
  findOfframp,
  findPaymentDetail,
  inTransaction,
  type OfframpRow,
  type QuoteRow,
  requestBouncedOfframpAction,
  updateOfframpReference,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { getAddress } from 'viem';
import { queueOfframpAction } from './start.ts';

/** Changes the reference of an `initiated` offramp (never of a USD local payout, whose reference is fixed). */
export async function changeOfframpReference(
  db: Kysely<Database>,
  offramp: OfframpRow,
  reference: string | null | undefined,
): Promise<OfframpRow> {
  if (offramp.destination_currency === 'usd' && offramp.rails === 'local') {
    throw recordInvalid([{ path: 'offramp.reference', message: 'cannot change on a USD local payout' }]);
  }
  const updated = await updateOfframpReference(db, offramp.id, reference || null);
  if (!updated) {
    throw recordInvalid([
      { path: 'offramp.reference', message: `cannot change once the offramp is ${offramp.status}` },
    ]);
  }
  return updated;
}

const notBounced = (row: OfframpRow) =>
  new ApiError(
    'offramp_not_bounced',
    row.status === 'bounced'
      ? `A ${row.bounce_action ?? 'resend or refund'} of this offramp is already under way`
      : `Only a bounced offramp can be resent or refunded; this one is ${row.status}`,
  );

/** Records the request with the call that hands it to the quote's workflow. */
async function requestAction(
  db: Kysely<Database>,
  input: { quote: QuoteRow; offramp: OfframpRow },
  action: Parameters<typeof requestBouncedOfframpAction>[2],
): Promise<OfframpRow> {
  const { quote, offramp } = input;
  const updated = await inTransaction(db, async (trx) => {
    const row = await requestBouncedOfframpAction(trx, offramp.id, action);
    if (row) await queueOfframpAction(trx, quote, offramp.id);
    return row;
  });
  if (!updated) {
    const scope = { merchantId: offramp.merchant_id, userId: offramp.user_id };
    throw notBounced((await findOfframp(db, scope, offramp.id)) ?? offramp);
  }
  return updated;
}

/** Asks for a bounced offramp to be paid out again to another approved payment detail of its currency. */
export async function requestOfframpResend(
  db: Kysely<Database>,
  input: { quote: QuoteRow; offramp: OfframpRow; paymentDetailId: string },
): Promise<OfframpRow> {
  const { offramp } = input;
  if (offramp.status !== 'bounced' || offramp.bounce_action !== null) throw notBounced(offramp);
  const path = 'offramp.payment_detail_id';
  const scope = { merchantId: offramp.merchant_id, userId: offramp.user_id };
  const detail = await findPaymentDetail(db, scope, input.paymentDetailId);
  if (!detail) throw recordInvalid([{ path, message: 'does not exist' }]);
  if (detail.status !== 'approved') {
    throw new ApiError(
      'payment_detail_not_approved',
      `Payment detail ${detail.id} is ${detail.status}, not approved`,
      {
        errors: [{ path, message: `is ${detail.status}` }],
      },
    );
  }
  if (detail.currency !== offramp.destination_currency) {
    throw new ApiError(
      'currency_mismatch',
      `The offramp pays out ${offramp.destination_currency}, not the payment detail's ${detail.currency}`,
      { errors: [{ path, message: `must be a ${offramp.destination_currency} payment detail` }] },
    );
  }
  if (detail.rails === 'swift' && offramp.rails !== 'swift') {
    throw recordInvalid([
      { path, message: `must not be a SWIFT payment detail for a ${offramp.rails} payout` },
    ]);
  }
  return requestAction(db, input, { kind: 'resend', paymentDetailId: detail.id });
}

/** Asks for a bounced offramp's tokens, fee included, to go back to `refundAddress` or the deposit's sender. */
export async function requestOfframpRefund(
  db: Kysely<Database>,
  input: { quote: QuoteRow; offramp: OfframpRow; refundAddress: string | undefined },
): Promise<OfframpRow> {
  const { quote, offramp } = input;
  if (offramp.status !== 'bounced' || offramp.bounce_action !== null) throw notBounced(offramp);
  const address = input.refundAddress ?? quote.sender_address;
  if (!address) {
    throw recordInvalid([
      { path: 'offramp.refund_address', message: "is required: the deposit's sender is unknown" },
    ]);
  }
  return requestAction(db, input, { kind: 'refund', refundAddress: getAddress(address) });
}
