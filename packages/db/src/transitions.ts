/**
 * The ramps' status machines, one table each: every status a row may move to from each status. A row may
 * always stay in its status (a change of message, refunds or refund state only). `transitionOnramp` and
 * `transitionOfframp` check each move here before they write it, so a step can only make a move its
 * machine has (docs/area-b-decisions.md describes both machines).
 */
import type { OfframpStatusValue, OnrampStatusValue } from './rampsSchema.ts';

/** Onramps: a deposit funds or holds, the treasury sends, a reverted send fails; no deposit expires. */
export const onrampTransitions: Readonly<Record<OnrampStatusValue, readonly OnrampStatusValue[]>> = {
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
export const offrampTransitions: Readonly<Record<OfframpStatusValue, readonly OfframpStatusValue[]>> = {
  initiated: ['pending_internal_assessment', 'failed'],
  pending_internal_assessment: ['sending_fiat'],
  sending_fiat: ['fiat_sent', 'bounced', 'failed'],
  bounced: ['sending_fiat', 'failed'],
  fiat_sent: [],
  failed: [],
};

/** A move its status machine does not have: a defect in the step that asked for it, never retried. */
export class IllegalTransitionError extends Error {
  constructor(machine: string, from: string, to: string) {
    super(`An ${machine} cannot move from ${from} to ${to}`);
    this.name = 'IllegalTransitionError';
  }
}

/** Throws {@link IllegalTransitionError} unless `to` is `from` or a move `table` has from it. */
export function checkTransition<S extends string>(
  machine: string,
  table: Readonly<Record<S, readonly S[]>>,
  from: S,
  to: S,
): void {
  if (from !== to && !table[from].includes(to)) throw new IllegalTransitionError(machine, from, to);
}
