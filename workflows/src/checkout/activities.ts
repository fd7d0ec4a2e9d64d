/** Activities of the checkout workflow: chain reads, the closed-tab look, session progress, the resolution, e-mails. */
import type { CheckoutActivityDeps } from './activityDeps.ts';
import { createMatchingSteps } from './matching.activities.ts';
import { createPaymentEmailSteps } from './paymentEmails.ts';
import { createResolutionSteps } from './resolution.activities.ts';
import { createTransactionSteps } from './transaction.activities.ts';

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
