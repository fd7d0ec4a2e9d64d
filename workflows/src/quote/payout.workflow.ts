/**
 * One offramp's payout (workflow side): `pending_internal_assessment → sending_fiat → fiat_sent`, or
 * `bounced` (waiting for the user's resend or refund request) or `failed` (its tokens refunded). A step that
 * fails for good (a value or rule the database refuses, failed validation) is noted on the offramp, in the
 * memo and the log; that offramp's payout stops where it is, the others go on.
 */
import { condition, log, sleep, upsertMemo } from '@temporalio/workflow';
import { failedStepMemo, finalFailureOf, unlessFinal } from '../finalFailure.ts';
import { activities, notify, type Outcome, type QuoteRun } from './run.workflow.ts';
import type { OfframpStep } from './shared.ts';

/** Waits for the offramp's refund transfer; undefined on handover. */
async function refundSteps(run: QuoteRun, first: OfframpStep): Promise<OfframpStep | undefined> {
  if (!run.budget()) return undefined;
  let step = await notify(await activities.sendOfframpRefund({ offrampId: first.offrampId }));
  for (let checks = 0; step.status === 'failed' && step.refund === 'pending'; checks++) {
    await sleep(checks < 20 ? '500 milliseconds' : '5 seconds');
    if (!run.budget()) return undefined;
    step = await notify(await activities.checkOfframpRefund({ offrampId: step.offrampId }));
  }
  return step;
}

/** The next step of the offramp's payout; undefined on handover, null once it is final. */
async function nextStep(run: QuoteRun, step: OfframpStep): Promise<OfframpStep | undefined | null> {
  const offrampId = step.offrampId;
  if (step.status === 'pending_internal_assessment' || step.status === 'bounced') {
    if (step.status === 'bounced') {
      // The money is held until the user asks for a resend or a refund (the API signals it).
      await condition(() => run.actions.has(offrampId) || run.handover);
      if (run.handover) return undefined;
      run.actions.delete(offrampId);
    }
    if (!run.budget()) return undefined;
    const handed =
      step.status === 'bounced'
        ? await activities.resolveBouncedOfframp({ offrampId })
        : await activities.submitOfframpPayout({ offrampId });
    await notify(handed);
    if (handed.status === 'sending_fiat' && handed.settleAfterMs > 0) await sleep(handed.settleAfterMs);
    return handed;
  }
  if (step.status === 'sending_fiat') {
    if (!run.budget()) return undefined;
    return notify(await activities.settleOfframpPayout({ offrampId }));
  }
  if (step.status === 'failed' && step.refund === 'pending') return refundSteps(run, step);
  return null;
}

/** Notes a step that failed for good on the offramp, in the memo and the log. */
async function noteFailure(run: QuoteRun, at: OfframpStep, error: unknown): Promise<Outcome> {
  const final = finalFailureOf(error);
  if (!final) throw error;
  const message = `The offramp's payout step failed and was stopped: ${final.message}`;
  log.error('an offramp step failed for good; the other payouts go on', {
    quoteId: run.input.quoteId,
    offrampId: at.offrampId,
    type: final.type,
  });
  upsertMemo({ [failedStepMemo]: { step: 'payout', offrampId: at.offrampId, type: final.type, message } });
  const noted = await unlessFinal(
    async () => notify(await activities.recordOfframpStepFailure({ offrampId: at.offrampId, message })),
    () => at,
  );
  return { id: noted.offrampId, status: noted.status };
}

/** Pays one offramp out to its final status; undefined on handover. */
export async function payout(run: QuoteRun, first: OfframpStep): Promise<Outcome | undefined> {
  let step = first;
  try {
    for (;;) {
      const next = await nextStep(run, step);
      if (next === undefined) return undefined;
      if (next === null) return { id: step.offrampId, status: step.status };
      step = next;
    }
  } catch (error) {
    return noteFailure(run, step, error);
  }
}
