/**
 * `quoteLifecycle`: one per quote (id `quote-<id>`), started when the quote is created. It waits for the
 * execute signal or the quote's expiry, whichever comes first. At the expiry an unexecuted quote becomes
 * expired and its offramps failed. Once executed, each offramp moves through
 * `pending_internal_assessment → sending_fiat → fiat_sent` (or `bounced` / `failed`) with the payout
 * partner, in parallel. A bounced offramp waits for the user's resend or refund request; a failed one is
 * refunded to the sender. Then the quote is completed. Each change carries an `offramp_update` webhook.
 *
 * Once the quote's outcome is known (expired, or executed), tokens at its deposit address that no payout
 * uses are returned to their sender from the treasury: everything sent to an expired quote, the excess of
 * the executing transfer, and any other transfer into an executed quote's address (found by a scan, or
 * reported through execute and signalled). Each refund change carries a `quote_update` webhook.
 *
 * Every step reads and writes the database through idempotent activities, so a fresh run (after
 * continue-as-new, or one started again by the reconciler) carries on from the stored state.
 */
import {
  condition,
  continueAsNew,
  log,
  proxyActivities,
  setHandler,
  sleep,
  upsertMemo,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { failedStepMemo, finalFailureOf } from '../finalFailure.ts';
import { AccountId, QuoteStatus, UserId } from '../shared.ts';
import { startDeliveryChild } from '../webhookDelivery/child.ts';
import {
  depositReportedSignal,
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
// Looks at the deposit address while transfers into it are too recent to count, and the pause between.
const rescans = 20;
const rescanDelay = '30 seconds';

type Outcome = { id: string; status: string };

/** The lifecycle of one quote. */
export async function quoteLifecycle(input: QuoteLifecycleInput): Promise<QuoteLifecycleResult> {
  let executed = input.executed === true;
  const actions = new Set<string>(input.actions ?? []);
  // A transfer into the deposit address was reported since the last look.
  let reported = false;
  setHandler(quoteExecutedSignal, () => {
    executed = true;
  });
  setHandler(offrampActionSignal, ({ offrampId }) => {
    actions.add(offrampId);
  });
  setHandler(depositReportedSignal, () => {
    reported = true;
  });
  upsertSearchAttributes([
    { key: AccountId, value: input.merchantId },
    { key: UserId, value: input.userId },
  ]);

  const deliver = startDeliveryChild;
  const notify = async <T extends { webhookDeliveryId: string | null }>(step: T): Promise<T> => {
    await deliver(step.webhookDeliveryId);
    return step;
  };
  const outcomes = (steps: OfframpStep[]): Outcome[] =>
    steps.map((s) => ({ id: s.offrampId, status: s.status }));

  let steps = 0;
  let handover = false;
  /** Counts one activity step; false once this run's budget is spent and a fresh run should go on. */
  const budget = (): boolean => {
    if (steps >= stepsPerRun) handover = true;
    steps += 1;
    return !handover;
  };

  /** Sends one refund from the treasury and waits until its transfer is final; false on handover. */
  const refundOne = async (refundId: string): Promise<boolean> => {
    if (!budget()) return false;
    let step = await notify(await activities.sendQuoteRefund({ refundId }));
    for (let checks = 0; step.status === 'pending'; checks++) {
      await sleep(checks < 20 ? '500 milliseconds' : '5 seconds');
      if (!budget()) return false;
      step = await notify(await activities.checkQuoteRefund({ refundId }));
    }
    return true;
  };
  /**
   * Looks at the deposit address for tokens no payout uses and returns them, one refund at a time
   * (treasury sends are serialised anyway), again while transfers are too recent to count or new ones
   * are reported; false on handover.
   */
  const findAndRefund = async (): Promise<boolean> => {
    for (let looks = 1; ; looks++) {
      reported = false;
      if (!budget()) return false;
      const scan = await activities.findQuoteRefunds({ quoteId: input.quoteId });
      for (const id of scan.webhookDeliveryIds) await deliver(id);
      for (const id of scan.pending) if (!(await refundOne(id))) return false;
      if (!scan.complete || reported) continue;
      if (!scan.unconfirmed || looks >= rescans) return true;
      await sleep(rescanDelay);
    }
  };
  /** Hands the history to a fresh run, which carries on from the stored state. */
  const handOver = (payingOut: boolean) =>
    continueAsNew<typeof quoteLifecycle>({
      ...input,
      executed: payingOut || executed,
      actions: [...actions],
    });

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
        // Expired: whatever reached the deposit address goes back to its sender.
        if (!(await findAndRefund())) return handOver(false);
        return { quoteId: input.quoteId, status: expiry.quoteStatus, offramps: outcomes(expiry.offramps) };
      }
    }
  }

  const start = await activities.beginQuotePayouts({ quoteId: input.quoteId });
  upsertSearchAttributes([{ key: QuoteStatus, value: start.quoteStatus }]);
  for (const step of start.offramps) await notify(step);
  if (start.quoteStatus !== 'executed') {
    // A finished quote started again for a refund (a transfer reported after its end).
    if (!(await findAndRefund())) return handOver(true);
    return { quoteId: input.quoteId, status: start.quoteStatus, offramps: outcomes(start.offramps) };
  }

  /**
   * An offramp step that failed for good (a value or rule the database refuses, failed validation) is noted
   * on the offramp, in the memo and the log; that offramp's payout stops where it is, the others go on.
   */
  const payout = async (first: OfframpStep): Promise<Outcome | undefined> => {
    let at = first;
    try {
      return await payoutSteps(first, (step) => {
        at = step;
      });
    } catch (error) {
      const final = finalFailureOf(error);
      if (!final) throw error;
      const message = `The offramp's payout step failed and was stopped: ${final.message}`;
      log.error('an offramp step failed for good; the other payouts go on', {
        quoteId: input.quoteId,
        offrampId: at.offrampId,
        type: final.type,
      });
      upsertMemo({
        [failedStepMemo]: { step: 'payout', offrampId: at.offrampId, type: final.type, message },
      });
      try {
        at = await notify(await activities.recordOfframpStepFailure({ offrampId: at.offrampId, message }));
      } catch (noting) {
        if (!finalFailureOf(noting)) throw noting;
      }
      return { id: at.offrampId, status: at.status };
    }
  };

  const payoutSteps = async (
    first: OfframpStep,
    seen: (step: OfframpStep) => void,
  ): Promise<Outcome | undefined> => {
    let step = first;
    for (;;) {
      seen(step);
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
  const payoutsDone = () => finished.size === start.offramps.length;
  // Alongside the payouts: the executing transfer's excess and any other transfer go back to the sender,
  // and transfers reported meanwhile are looked for as they are reported.
  let refundsDone = false;
  (async () => {
    if (!(await findAndRefund())) return;
    for (;;) {
      await condition(() => reported || payoutsDone() || handover);
      if (handover || !reported) break;
      if (!(await findAndRefund())) return;
    }
    refundsDone = !handover;
  })().catch((error: unknown) => {
    failure ??= error;
  });
  await condition(() => (payoutsDone() && refundsDone) || handover || failure !== undefined);
  if (failure !== undefined) throw failure;
  if (handover) return handOver(true);
  // A transfer reported as the payouts ended.
  if (reported && !(await findAndRefund())) return handOver(true);

  const { quoteStatus } = await activities.completeQuote({ quoteId: input.quoteId });
  upsertSearchAttributes([{ key: QuoteStatus, value: quoteStatus }]);
  // A transfer reported while the quote was being completed: looked at before this run ends, since the
  // report found this run still going and started no other.
  if (reported && !(await findAndRefund())) return handOver(true);
  return {
    quoteId: input.quoteId,
    status: quoteStatus,
    offramps: start.offramps.map((o) => finished.get(o.offrampId) ?? { id: o.offrampId, status: o.status }),
  };
}
