/**
 * Activities of `quoteLifecycle`, one factory per concern merged here: the payouts (payouts.ts), a failed
 * payout's refund (offrampRefunds.ts) and the tokens at the deposit address no payout uses
 * (depositRefunds.ts), on the resources they share (context.ts).
 */
import { type QuoteActivityDeps, quoteActivityContext } from './context.ts';
import { createDepositRefundActivities } from './depositRefunds.ts';
import { createOfframpRefundActivities } from './offrampRefunds.ts';
import { createPayoutActivities } from './payouts.ts';
import type { QuoteActivities } from './shared.ts';

export type { QuoteActivityDeps } from './context.ts';

/** Builds the quote activities. */
export function createQuoteActivities(deps: QuoteActivityDeps): QuoteActivities {
  const context = quoteActivityContext(deps);
  return {
    ...createPayoutActivities(context),
    ...createOfframpRefundActivities(context),
    ...createDepositRefundActivities(context),
  };
}
