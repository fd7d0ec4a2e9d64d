/**
 * Activity registry: merges every workflow family's activities into the object a worker serves.
 * Each family exports `create<Family>Activities(deps)` and its deps type; the worker's deps are their union.
 */
import { type ChainWatcherActivityDeps, createChainWatcherActivities } from './chainWatcher/activities.ts';
import { type CheckoutActivityDeps, createCheckoutActivities } from './checkout/activities.ts';
import { createKycActivities, type KycActivityDeps } from './kyc/activities.ts';
import { createOnrampActivities, type OnrampActivityDeps } from './onramp/activities.ts';
import { createQuoteActivities, type QuoteActivityDeps } from './quote/activities.ts';
import { createRefundActivities, type RefundActivityDeps } from './refund/activities.ts';
import { createReorgActivities, type ReorgActivityDeps } from './reorg/activities.ts';
import { createSmokeActivities } from './smoke/activities.ts';
import { createUnmatchedActivities, type UnmatchedActivityDeps } from './unmatched/activities.ts';
import { createWebhookActivities, type WebhookActivityDeps } from './webhookDelivery/activities.ts';

/** Resources the activity families need. */
export type ActivityDeps = CheckoutActivityDeps &
  ChainWatcherActivityDeps &
  WebhookActivityDeps &
  KycActivityDeps &
  OnrampActivityDeps &
  QuoteActivityDeps &
  UnmatchedActivityDeps &
  ReorgActivityDeps &
  RefundActivityDeps;

/** Builds all activities from their dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createSmokeActivities(),
    ...createCheckoutActivities(deps),
    ...createChainWatcherActivities(deps),
    ...createWebhookActivities(deps),
    ...createKycActivities(deps),
    ...createOnrampActivities(deps),
    ...createQuoteActivities(deps),
    ...createUnmatchedActivities(deps),
    ...createReorgActivities(deps),
    ...createRefundActivities(deps),
  };
}

/** Every activity the checkout workers serve. */
export type Activities = ReturnType<typeof createActivities>;
