/**
 * What was unusual about a resolved checkout payment, as one field beside `amount_difference` (after
 * BTCPay Server's `exceptionStatus`), so merchants need not parse a percentage to act on it.
 */

export const paymentExceptionStatuses = [
  'reversed',
  'refunded',
  'partially_refunded',
  'paid_twice',
  'paid_partially',
  'paid_over',
  'paid_late',
] as const;
export type PaymentExceptionStatus = (typeof paymentExceptionStatuses)[number];

/**
 * The exception of a payment, the most pressing first: `reversed` when a reorganisation took its transaction
 * off the chain (it no longer stands); `refunded` when confirmed refunds gave back all it received,
 * `partially_refunded` when they gave back part of it; `paid_twice` while a second transfer of its payer for it waits as an
 * unmatched transfer; `paid_partially` when less arrived than was due, `paid_over` when more did, else
 * `paid_late` when it arrived after the checkout's time ran out; null for an exact payment in time, and for a
 * failed transaction (nothing was paid). The amount decides before lateness: a late partial payment is
 * `paid_partially` (the session's `late` still tells). Amounts are base units with their decimals, so a
 * swap's received token may have other decimals than the expected one.
 */
export function paymentExceptionStatus(input: {
  expected: { units: bigint; decimals: number };
  received: { units: bigint; decimals: number };
  late: boolean;
  txFailure: boolean;
  reversed?: boolean;
  paidTwice?: boolean;
  /** Base units of the received token that confirmed refunds gave back. */
  refundedUnits?: bigint;
}): PaymentExceptionStatus | null {
  if (input.reversed) return 'reversed';
  if (input.txFailure) return null;
  if (input.refundedUnits !== undefined && input.refundedUnits > 0n) {
    return input.refundedUnits >= input.received.units ? 'refunded' : 'partially_refunded';
  }
  if (input.paidTwice) return 'paid_twice';
  const scale = Math.max(input.expected.decimals, input.received.decimals);
  const expected = input.expected.units * 10n ** BigInt(scale - input.expected.decimals);
  const received = input.received.units * 10n ** BigInt(scale - input.received.decimals);
  if (received < expected) return 'paid_partially';
  if (received > expected) return 'paid_over';
  return input.late ? 'paid_late' : null;
}
