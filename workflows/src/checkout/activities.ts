/** Activities of the checkout workflow: chain reads, the closed-tab look, session progress, the resolution, e-mails. */
import type { CheckoutActivityDeps } from './activityDeps.ts';
import { createMatchingSteps } from './matchingSteps.ts';
import { createPaymentEmailSteps } from './paymentEmails.ts';
import { createResolutionSteps } from './resolutionSteps.ts';
import { createTransactionSteps } from './transactionSteps.ts';

export type { CheckoutActivityDeps } from './activityDeps.ts';

/** Builds the checkout activities over their dependencies. */
export function createCheckoutActivities(deps: CheckoutActivityDeps) {
  return {
    ...createTransactionSteps(deps),
    ...createMatchingSteps(deps),
    ...createResolutionSteps(deps),
    ...createPaymentEmailSteps(deps),
  };
}

/** The checkout activities' type, for `proxyActivities`. */
export type CheckoutActivities = ReturnType<typeof createCheckoutActivities>;
