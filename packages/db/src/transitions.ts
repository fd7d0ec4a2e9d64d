/**
 * The status machines, one table each: every status a row may move to from each status. A row may always
 * stay in its status (a change of message, refunds or refund state only). Each repository write of a status
 * checks its move here with the one check, `checkTransition`, before it writes it (`transitionOnramp`,
 * `transitionOfframp`, `setQuoteStatus`, `markQuoteExecuted`, `setPaymentDetailStatus`, `updateSession`,
 * `recordResolvedPayment`) or writes only from the statuses its table allows (`statusesBefore`, `statusesMovingTo`:
 * `moveRefund`, `settleUnmatchedTransfer`, `reopenUnmatchedClaim`, `reopenRefundedTransfer`, `recordUnmatchedReorg`),
 * so a step can only make a move its machine has (docs/area-b-decisions.md describes the machines). A new machine is one more
 * table here and the same check in its repository.
 */
import type { CheckoutSessionRow, ExpectedPaymentRow } from './checkoutSchema.ts';
import type { OfframpStatusValue, OnrampStatusValue, QuoteStatusValue } from './rampsSchema.ts';
import type { RefundRowStatus } from './refundSchema.ts';
import type { UnmatchedTransferStatus } from './unmatchedSchema.ts';
import type { PaymentDetailRow } from './usersSchema.ts';

/** A status machine: the moves from each status. */
export type Transitions<S extends string> = Readonly<Record<S, readonly S[]>>;

/** Quotes: an open quote is executed or expires; an executed one is completed once its payouts end. */
export const quoteTransitions: Transitions<QuoteStatusValue> = {
  open: ['executed', 'expired'],
  executed: ['completed'],
  expired: [],
  completed: [],
};

type PaymentDetailStatus = PaymentDetailRow['status'];

/**
 * Payment details: the partner's review (the sandbox) moves a detail between its review statuses in any
 * direction; deactivation, from any of them, is for good.
 */
export const paymentDetailTransitions: Transitions<PaymentDetailStatus> = {
  initiated: ['pending', 'approved', 'failed', 'deactivated'],
  pending: ['initiated', 'approved', 'failed', 'deactivated'],
  approved: ['initiated', 'pending', 'failed', 'deactivated'],
  failed: ['initiated', 'pending', 'approved', 'deactivated'],
  deactivated: [],
};

/** Onramps: a deposit funds or holds, the treasury sends, a reverted send fails; no deposit expires. */
export const onrampTransitions: Transitions<OnrampStatusValue> = {
  initiated: ['held', 'funds_received', 'expired'],
  held: ['funds_received'],
  funds_received: ['sending_crypto'],
  sending_crypto: ['crypto_sent', 'failed'],
  crypto_sent: [],
  failed: [],
  expired: [],
};

/**
 * Offramps: an executed quote's payout is assessed, sent, then settled, bounced or failed; a bounced one is
 * resent or refunded (failed); an expired quote fails its unsent offramps.
 */
export const offrampTransitions: Transitions<OfframpStatusValue> = {
  initiated: ['pending_internal_assessment', 'failed'],
  pending_internal_assessment: ['sending_fiat'],
  sending_fiat: ['fiat_sent', 'bounced', 'failed'],
  bounced: ['sending_fiat', 'failed'],
  fiat_sent: [],
  failed: [],
};

/**
 * Checkout sessions: a transaction is checked (confirming) and resolves the session, fails it, or is refused
 * (back to awaiting, or to expired once the time ran out); the timer expires a session, which may still be
 * paid late; an attempt given up is closed. Resolved, failed and closed are final (a reorganisation reverses
 * the payment, not the session).
 */
export const checkoutSessionTransitions: Transitions<CheckoutSessionRow['status']> = {
  awaiting_payment: ['confirming', 'expired', 'resolved', 'failed', 'closed'],
  confirming: ['awaiting_payment', 'expired', 'resolved', 'failed'],
  expired: ['confirming', 'resolved', 'failed', 'closed'],
  resolved: [],
  failed: [],
  closed: [],
};

/** Expected payments follow their session: open while it awaits, paid or failed with it, closed with a shopper's attempt. */
export const expectedPaymentTransitions: Transitions<ExpectedPaymentRow['status']> = {
  open: ['confirming', 'paid', 'failed', 'expired', 'closed'],
  confirming: ['open', 'paid', 'failed', 'expired'],
  expired: ['confirming', 'paid', 'failed', 'closed'],
  paid: [],
  failed: [],
  closed: [],
};

/**
 * Refunds: one awaiting its address is claimed (ready to pay), canceled or expires; one ready to pay is paid
 * (its transfer seen: sent) or canceled; a sent one is confirmed, or back to ready to pay when a
 * reorganisation took its transfer away. Confirmed, canceled and expired are final.
 */
export const refundTransitions: Transitions<RefundRowStatus> = {
  awaiting_address: ['ready_to_pay', 'canceled', 'expired'],
  ready_to_pay: ['sent', 'canceled'],
  sent: ['confirmed', 'ready_to_pay'],
  confirmed: [],
  canceled: [],
  expired: [],
};

/**
 * Unmatched transfers: an open one is attached to an order, refunded, dismissed, or reversed (its transaction
 * left the chain); an attached one whose checkout could not take it, a refunded one whose refund ended unpaid
 * and a reversed one mined again are open again. Dismissed is final.
 */
export const unmatchedTransferTransitions: Transitions<UnmatchedTransferStatus> = {
  open: ['attached', 'refunded', 'dismissed', 'reversed'],
  attached: ['open'],
  refunded: ['open'],
  reversed: ['open'],
  dismissed: [],
};

/**
 * The statuses a conditional write moves a row to `to` from: `from` when the step names them (each move
 * checked against `table`: one the machine does not have throws), else every status `table` moves to `to`
 * from — never `to` itself, so a row already there is not moved (nor announced) again.
 */
export function statusesMovingTo<S extends string>(
  machine: string,
  table: Transitions<S>,
  to: S,
  from?: readonly S[],
): S[] {
  if (!from) return (Object.keys(table) as S[]).filter((status) => table[status].includes(to));
  for (const status of from) checkTransition(machine, table, status, to);
  return [...from];
}

/** The statuses `table` lets a row move to `to` from, `to` itself included. */
export function statusesBefore<S extends string>(table: Transitions<S>, to: S): S[] {
  return (Object.keys(table) as S[]).filter((from) => from === to || table[from].includes(to));
}

/** A move its status machine does not have: a defect in the step that asked for it, never retried. */
export class IllegalTransitionError extends Error {
  constructor(machine: string, from: string, to: string) {
    super(`${/^[aeiou]/.test(machine) ? 'An' : 'A'} ${machine} cannot move from ${from} to ${to}`);
    this.name = 'IllegalTransitionError';
  }
}

/** Throws {@link IllegalTransitionError} unless `to` is `from` or a move `table` has from it. */
export function checkTransition<S extends string>(
  machine: string,
  table: Transitions<S>,
  from: S,
  to: S,
): void {
  if (from !== to && !table[from].includes(to)) throw new IllegalTransitionError(machine, from, to);
}
