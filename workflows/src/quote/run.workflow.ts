/**
 * One run of `quoteLifecycle` (workflow side): the signals it has heard (execute, a bounced offramp's
 * request, a reported deposit), its budget of activity steps before a fresh run takes over, and the proxied
 * activities its steps call (payout.workflow.ts, refund.workflow.ts).
 */
import { proxyActivities, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import { AccountId, UserId } from '../shared.ts';
import { startDeliveryChild } from '../webhookDelivery/child.workflow.ts';
import {
  depositReportedSignal,
  offrampActionSignal,
  type QuoteActivities,
  type QuoteLifecycleInput,
  quoteExecutedSignal,
} from './shared.ts';

export const activities = proxyActivities<QuoteActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

// Activity steps per run across all offramps before the history is handed to a fresh run.
const stepsPerRun = 2_000;

/** A step's final status of one offramp. */
export type Outcome = { id: string; status: string };

/** What a run knows and has spent. */
export interface QuoteRun {
  readonly input: QuoteLifecycleInput;
  executed: boolean;
  /** Bounced offramps with a request not yet acted on. */
  readonly actions: Set<string>;
  /** A transfer into the deposit address was reported since the last look. */
  reported: boolean;
  /** Every transaction reported into the deposit address. */
  readonly reportedHashes: Set<string>;
  /** The budget is spent: the run's steps stop and a fresh run goes on. */
  handover: boolean;
  /** Counts one activity step; false once this run's budget is spent. */
  budget(): boolean;
}

/** Starts a run: its signal handlers and search attributes. */
export function startQuoteRun(input: QuoteLifecycleInput): QuoteRun {
  let steps = 0;
  const run: QuoteRun = {
    input,
    executed: input.executed === true,
    actions: new Set(input.actions ?? []),
    reported: false,
    reportedHashes: new Set(input.reported ?? []),
    handover: false,
    budget() {
      if (steps >= stepsPerRun) run.handover = true;
      steps += 1;
      return !run.handover;
    },
  };
  setHandler(quoteExecutedSignal, () => {
    run.executed = true;
  });
  setHandler(offrampActionSignal, ({ offrampId }) => {
    run.actions.add(offrampId);
  });
  setHandler(depositReportedSignal, ({ txHash }) => {
    run.reportedHashes.add(txHash.toLowerCase());
    run.reported = true;
  });
  upsertSearchAttributes([
    { key: AccountId, value: input.merchantId },
    { key: UserId, value: input.userId },
  ]);
  return run;
}

/** Sends the webhook a step queued, and hands the step on. */
export async function notify<T extends { webhookDeliveryId: string | null }>(step: T): Promise<T> {
  await startDeliveryChild(step.webhookDeliveryId);
  return step;
}
