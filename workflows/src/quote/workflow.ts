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
 * the executing transfer, and any other transfer into an executed quote's address (recorded by the chain's
 * watcher, or reported through execute, and signalled). Each refund change carries a `quote_update` webhook.
 *
 * Every step reads and writes the database through idempotent activities, so a fresh run (after
 * continue-as-new, or one started again by a later call) carries on from the stored state.
 */
import { condition, continueAsNew } from '@temporalio/workflow';
import { QuoteStatus } from '../shared.ts';
import { ownMemo, showStatus } from '../showStatus.workflow.ts';
import { quoteStatus } from '../summaries.ts';
import { payout } from './payout.workflow.ts';
import { findAndRefund } from './refund.workflow.ts';
import { activities, notify, type Outcome, type QuoteRun, startQuoteRun } from './run.workflow.ts';
import type { OfframpStep, QuoteLifecycleInput, QuoteLifecycleResult, QuotePayoutStart } from './shared.ts';

const outcomes = (steps: OfframpStep[]): Outcome[] =>
  steps.map((s) => ({ id: s.offrampId, status: s.status }));

/** Shows the quote's status (`QuoteStatus`, the `Summary` line) and its offramps' (the current details). */
function showQuote(run: QuoteRun, status: string, offramps?: Outcome[]): void {
  const shown = quoteStatus(ownMemo(), { status, expiresAt: Date.parse(run.input.expiresAt), offramps });
  showStatus(shown, [{ key: QuoteStatus, value: status }]);
}

/** Hands the history to a fresh run, which carries on from the stored state. */
function handOver(run: QuoteRun, payingOut: boolean) {
  return continueAsNew<typeof quoteLifecycle>({
    ...run.input,
    executed: payingOut || run.executed,
    actions: [...run.actions],
    reported: [...run.reportedHashes],
  });
}

/**
 * Waits for the execute signal or the expiry; at the expiry an open quote expires. The quote's status once
 * it was executed (undefined), or its result when it ended without being executed.
 */
async function awaitExecution(run: QuoteRun): Promise<QuoteLifecycleResult | undefined> {
  const { input } = run;
  showQuote(run, 'open');
  // The durable expiry timer: a worker restart resumes it from the history.
  const remaining = Date.parse(input.expiresAt) - Date.now();
  if (remaining > 0) await condition(() => run.executed, remaining);
  if (run.executed) return undefined;
  const expiry = await activities.expireQuote({ quoteId: input.quoteId });
  for (const step of expiry.offramps) await notify(step);
  showQuote(run, expiry.quoteStatus, outcomes(expiry.offramps));
  // Executed in the database although no signal came (it was lost, or raced the timer): pay out.
  if (expiry.quoteStatus === 'executed') return undefined;
  // Expired: whatever reached the deposit address goes back to its sender.
  if (!(await findAndRefund(run))) return handOver(run, false);
  return { quoteId: input.quoteId, status: expiry.quoteStatus, offramps: outcomes(expiry.offramps) };
}

/**
 * Every offramp's payout, in parallel, and alongside them the quote's own refunds: the executing transfer's
 * excess and any other transfer go back to the sender, and transfers reported meanwhile are looked for as
 * they are reported. The outcome of each offramp; throws the first failure.
 */
async function payAll(run: QuoteRun, start: QuotePayoutStart): Promise<Map<string, Outcome>> {
  const finished = new Map<string, Outcome>();
  let failure: unknown;
  const failed = (error: unknown) => {
    failure ??= error;
  };
  for (const first of start.offramps) {
    payout(run, first).then((outcome) => {
      if (outcome) finished.set(outcome.id, outcome);
    }, failed);
  }
  const payoutsDone = () => finished.size === start.offramps.length;
  let refundsDone = false;
  (async () => {
    if (!(await findAndRefund(run))) return;
    for (;;) {
      await condition(() => run.reported || payoutsDone() || run.handover);
      if (run.handover || !run.reported) break;
      if (!(await findAndRefund(run))) return;
    }
    refundsDone = !run.handover;
  })().catch(failed);
  await condition(() => (payoutsDone() && refundsDone) || run.handover || failure !== undefined);
  if (failure !== undefined) throw failure;
  return finished;
}

/** The lifecycle of one quote. */
export async function quoteLifecycle(input: QuoteLifecycleInput): Promise<QuoteLifecycleResult> {
  const run = startQuoteRun(input);
  if (!run.executed) {
    const ended = await awaitExecution(run);
    if (ended) return ended;
  }

  const start = await activities.beginQuotePayouts({ quoteId: input.quoteId });
  showQuote(run, start.quoteStatus, outcomes(start.offramps));
  for (const step of start.offramps) await notify(step);
  if (start.quoteStatus !== 'executed') {
    // A finished quote started again for a refund (a transfer reported after its end).
    if (!(await findAndRefund(run))) return handOver(run, true);
    return { quoteId: input.quoteId, status: start.quoteStatus, offramps: outcomes(start.offramps) };
  }

  const finished = await payAll(run, start);
  if (run.handover) return handOver(run, true);
  // A transfer reported as the payouts ended.
  if (run.reported && !(await findAndRefund(run))) return handOver(run, true);

  const { quoteStatus: status } = await activities.completeQuote({ quoteId: input.quoteId });
  const offramps = start.offramps.map(
    (o) => finished.get(o.offrampId) ?? { id: o.offrampId, status: o.status },
  );
  showQuote(run, status, offramps);
  // A transfer reported while the quote was being completed: looked at before this run ends, since the
  // report found this run still going and started no other.
  if (run.reported && !(await findAndRefund(run))) return handOver(run, true);
  return { quoteId: input.quoteId, status, offramps };
}
