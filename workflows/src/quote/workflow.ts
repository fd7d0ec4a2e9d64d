/**
 * `quoteLifecycle`: one per quote (id `quote-<id>`), started when the quote is created. It waits for the
 * execute signal or the quote's expiry, whichever comes first. At the expiry an unexecuted quote becomes
 * expired and its offramps failed. Once executed, each offramp moves through
 * `pending_internal_assessment → sending_fiat → fiat_sent` (or `bounced` / `failed`) with the payout
 * partner, in parallel. A bounced offramp waits for the user's resend or refund request; a failed one is
 * refunded to the sender. Then the quote is completed. Each change carries an `offramp_update` webhook.
 *
 * Every step reads and writes the database through idempotent activities, so a fresh run (after
 * continue-as-new, or one started again by the reconciler) carries on from the stored state.
 */
import {
  condition,
  continueAsNew,
  ParentClosePolicy,
  proxyActivities,
  setHandler,
  sleep,
  startChild,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { AccountId, QuoteStatus, UserId } from '../shared.ts';
import { webhookWorkflowId } from '../webhookDelivery/shared.ts';
import { webhookDelivery } from '../webhookDelivery/workflow.ts';
import {
  type OfframpStep,
  offrampActionSignal,
  type QuoteActivities,
  type QuoteLifecycleInput,
  type QuoteLifecycleResult,
  quoteExecutedSignal,
} from './shared.ts';

const activities = proxyActivities<QuoteActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

// Activity steps per run across all offramps before the history is handed to a fresh run.
const stepsPerRun = 2_000;

type Outcome = { id: string; status: string };

/** The lifecycle of one quote. */
export async function quoteLifecycle(input: QuoteLifecycleInput): Promise<QuoteLifecycleResult> {
  let executed = input.executed === true;
  const actions = new Set<string>(input.actions ?? []);
  setHandler(quoteExecutedSignal, () => {
    executed = true;
  });
  setHandler(offrampActionSignal, ({ offrampId }) => {
    actions.add(offrampId);
  });
  upsertSearchAttributes([
    { key: AccountId, value: input.merchantId },
    { key: UserId, value: input.userId },
  ]);

  const notify = async (step: OfframpStep): Promise<OfframpStep> => {
    if (step.webhookDeliveryId) {
      await startChild(webhookDelivery, {
        workflowId: webhookWorkflowId(step.webhookDeliveryId),
        args: [{ deliveryId: step.webhookDeliveryId }],
        parentClosePolicy: ParentClosePolicy.ABANDON,
      });
    }
    return step;
  };
  const outcomes = (steps: OfframpStep[]): Outcome[] =>
    steps.map((s) => ({ id: s.offrampId, status: s.status }));

  if (!executed) {
    upsertSearchAttributes([{ key: QuoteStatus, value: 'open' }]);
    // The durable expiry timer: a worker restart resumes it from the history.
    const remaining = Date.parse(input.expiresAt) - Date.now();
    if (remaining > 0) await condition(() => executed, remaining);
    if (!executed) {
      const expiry = await activities.expireQuote({ quoteId: input.quoteId });
      for (const step of expiry.offramps) await notify(step);
      upsertSearchAttributes([{ key: QuoteStatus, value: expiry.quoteStatus }]);
      // Executed in the database although no signal came (it was lost, or raced the timer): pay out.
      if (expiry.quoteStatus !== 'executed') {
        return { quoteId: input.quoteId, status: expiry.quoteStatus, offramps: outcomes(expiry.offramps) };
      }
    }
  }

  const start = await activities.beginQuotePayouts({ quoteId: input.quoteId });
  upsertSearchAttributes([{ key: QuoteStatus, value: start.quoteStatus }]);
  for (const step of start.offramps) await notify(step);
  if (start.quoteStatus !== 'executed') {
    return { quoteId: input.quoteId, status: start.quoteStatus, offramps: outcomes(start.offramps) };
  }

  let steps = 0;
  let handover = false;
  /** Counts one activity step; false once this run's budget is spent and a fresh run should go on. */
  const budget = (): boolean => {
    if (steps >= stepsPerRun) handover = true;
    steps += 1;
    return !handover;
  };

  const payout = async (first: OfframpStep): Promise<Outcome | undefined> => {
    let step = first;
    for (;;) {
      if (step.status === 'pending_internal_assessment') {
        if (!budget()) return undefined;
        const submitted = await activities.submitOfframpPayout({ offrampId: step.offrampId });
        step = await notify(submitted);
        if (step.status === 'sending_fiat' && submitted.settleAfterMs > 0)
          await sleep(submitted.settleAfterMs);
      } else if (step.status === 'sending_fiat') {
        if (!budget()) return undefined;
        step = await notify(await activities.settleOfframpPayout({ offrampId: step.offrampId }));
      } else if (step.status === 'bounced') {
        // The money is held until the user asks for a resend or a refund (the API signals it).
        const id = step.offrampId;
        await condition(() => actions.has(id) || handover);
        if (handover) return undefined;
        actions.delete(id);
        if (!budget()) return undefined;
        const resolved = await activities.resolveBouncedOfframp({ offrampId: id });
        step = await notify(resolved);
        if (step.status === 'sending_fiat' && resolved.settleAfterMs > 0) await sleep(resolved.settleAfterMs);
      } else if (step.status === 'failed' && step.refund === 'pending') {
        if (!budget()) return undefined;
        step = await notify(await activities.sendOfframpRefund({ offrampId: step.offrampId }));
        for (let checks = 0; step.status === 'failed' && step.refund === 'pending'; checks++) {
          await sleep(checks < 20 ? '500 milliseconds' : '5 seconds');
          if (!budget()) return undefined;
          step = await notify(await activities.checkOfframpRefund({ offrampId: step.offrampId }));
        }
      } else {
        return { id: step.offrampId, status: step.status };
      }
    }
  };

  const finished = new Map<string, Outcome>();
  let failure: unknown;
  for (const first of start.offramps) {
    payout(first).then(
      (outcome) => {
        if (outcome) finished.set(outcome.id, outcome);
      },
      (error: unknown) => {
        failure ??= error;
      },
    );
  }
  await condition(() => finished.size === start.offramps.length || handover || failure !== undefined);
  if (failure !== undefined) throw failure;
  if (handover) {
    return continueAsNew<typeof quoteLifecycle>({ ...input, executed: true, actions: [...actions] });
  }

  const { quoteStatus } = await activities.completeQuote({ quoteId: input.quoteId });
  upsertSearchAttributes([{ key: QuoteStatus, value: quoteStatus }]);
  return {
    quoteId: input.quoteId,
    status: quoteStatus,
    offramps: start.offramps.map((o) => finished.get(o.offrampId) ?? { id: o.offrampId, status: o.status }),
  };
}
