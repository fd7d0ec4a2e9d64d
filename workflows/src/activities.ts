/**
 * Activity registry: merges every workflow family's activities into the object a worker serves.
 * Each family exports `create<Family>Activities(deps)` and its deps type; the worker's deps are their union.
 * The chain watcher is handed the reactions to the facts it records (the reaction table, reactions.ts).
 */
import { type ChainWatcherActivityDeps, createChainWatcherActivities } from './chainWatcher/activities.ts';
import { type CheckoutActivityDeps, createCheckoutActivities } from './checkout/activities.ts';
import { createDepositSweepActivities, type DepositSweepActivityDeps } from './depositSweep/activities.ts';
import { createEmailResendActivities, type EmailResendActivityDeps } from './emailResend/activities.ts';
import { createKycActivities, type KycActivityDeps } from './kyc/activities.ts';
import { createOnrampActivities, type OnrampActivityDeps } from './onramp/activities.ts';
import { createQuoteActivities, type QuoteActivityDeps } from './quote/activities.ts';
import { createChainReactions, type ReactionDeps } from './reactions.ts';
import { createRefundActivities, type RefundActivityDeps } from './refund/activities.ts';
import { createReorgActivities, type ReorgActivityDeps } from './reorg/activities.ts';
import { createSmokeActivities } from './smoke/activities.ts';
import { createUnmatchedActivities, type UnmatchedActivityDeps } from './unmatched/activities.ts';
import { createWebhookActivities, type WebhookActivityDeps } from './webhookDelivery/activities.ts';

/** Resources the activity families need. */
export type ActivityDeps = CheckoutActivityDeps &
  ChainWatcherActivityDeps &
  DepositSweepActivityDeps &
  EmailResendActivityDeps &
  WebhookActivityDeps &
  KycActivityDeps &
  OnrampActivityDeps &
  QuoteActivityDeps &
  UnmatchedActivityDeps &
  ReorgActivityDeps &
  RefundActivityDeps &
  ReactionDeps;

/** Builds all activities from their dependencies. */
export function createActivities(deps: ActivityDeps) {
  const unmatched = createUnmatchedActivities(deps);
  const reorg = createReorgActivities(deps);
  return {
    ...createSmokeActivities(),
    ...createCheckoutActivities(deps),
    ...createChainWatcherActivities(deps, createChainReactions(deps, { unmatched, reorg })),
    ...createDepositSweepActivities(deps),
    ...createWebhookActivities(deps),
    ...createEmailResendActivities(deps),
    ...createKycActivities(deps),
    ...createOnrampActivities(deps),
    ...createQuoteActivities(deps),
    ...unmatched,
    ...reorg,
    ...createRefundActivities(deps),
  };
}

/** Every activity the checkout workers serve. */
export type Activities = ReturnType<typeof createActivities>;
