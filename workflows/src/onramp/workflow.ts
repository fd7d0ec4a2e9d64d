/**
 * `onrampLifecycle`: one per onramp (id `onramp-<id>`). Waits for the bank partner's deposit signals,
 * holds short deposits, expires unfunded onramps, then sends the tokens from the treasury exactly once
 * and waits for the transfer's confirmation. Then fiat it does not use goes back to the sending account
 * through the bank partner: a deposit's excess, deposits reported after funding or expiry (a finished
 * onramp is started again by such a deposit), a failed onramp's deposit. Each change carries an
 * `onramp_update` webhook.
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
import { finalFailureOf, unlessFinal } from '../finalFailure.ts';
import { AccountId, OnrampStatus, UserId } from '../shared.ts';
import { ownMemo, showStatus } from '../showStatus.workflow.ts';
import { onrampStatus } from '../summaries.ts';
import { startDeliveryChild } from '../webhookDelivery/child.workflow.ts';
import {
  type OnrampActivities,
  type OnrampDeposit,
  type OnrampLifecycleInput,
  type OnrampLifecycleResult,
  type OnrampStep,
  onrampDepositSignal,
  onrampFailedStepMemo,
} from './shared.ts';

const activities = proxyActivities<OnrampActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

// Deposits handled and transfer checks made per run before the history is handed to a fresh run.
const depositsPerRun = 100;
const checksPerRun = 500;
const terminal = new Set(['crypto_sent', 'failed', 'expired']);

/** The lifecycle of one onramp. */
export async function onrampLifecycle(input: OnrampLifecycleInput): Promise<OnrampLifecycleResult> {
  const queue: OnrampDeposit[] = [...(input.pending ?? [])];
  setHandler(onrampDepositSignal, (deposit) => {
    queue.push(deposit);
  });
  upsertSearchAttributes([
    { key: AccountId, value: input.merchantId },
    { key: UserId, value: input.userId },
  ]);

  const deliver = startDeliveryChild;
  // Why the last step failed for good, shown until a step succeeds.
  let failure: string | null = null;
  const apply = async (step: OnrampStep): Promise<string> => {
    const shown = onrampStatus(ownMemo(), {
      status: step.status,
      expiresAt: Date.parse(input.expiresAt),
      failure,
    });
    showStatus(shown, [{ key: OnrampStatus, value: step.status }]);
    await deliver(step.webhookDeliveryId);
    return step.status;
  };

  /**
   * Runs a step; one that fails for good (a value or rule the database refuses, failed validation) is noted
   * on the onramp, in the memo and the log, and skipped: null then, and the lifecycle goes on.
   */
  const step = async (name: string, run: () => Promise<OnrampStep>): Promise<string | null> => {
    try {
      const done = await run();
      failure = null;
      return await apply(done);
    } catch (error) {
      const final = finalFailureOf(error);
      if (!final) throw error;
      const message = `The onramp's ${name} step failed and was skipped: ${final.message}`;
      failure = message;
      log.warn('an onramp step failed for good; the onramp goes on', {
        onrampId: input.onrampId,
        step: name,
        type: final.type,
      });
      upsertMemo({ [onrampFailedStepMemo]: { step: name, type: final.type, message } });
      await unlessFinal(
        async () => apply(await activities.recordOnrampStepFailure({ onrampId: input.onrampId, message })),
        () =>
          log.error('the failed onramp step could not be noted on the onramp', { onrampId: input.onrampId }),
      );
      return null;
    }
  };
  // A step that failed for good is not tried again by itself: the onramp then waits for what comes next.
  let stuck = false;

  let status = await apply(await activities.loadOnramp({ onrampId: input.onrampId }));
  for (let handled = 0; status === 'initiated' || status === 'held'; handled++) {
    if (handled >= depositsPerRun) {
      return continueAsNew<typeof onrampLifecycle>({ ...input, pending: queue });
    }
    if (status === 'initiated' && !stuck) {
      const remaining = Date.parse(input.expiresAt) - Date.now();
      const arrived = remaining > 0 && (await condition(() => queue.length > 0, remaining));
      if (!arrived) {
        const expired = await step('expiry', () => activities.expireOnramp({ onrampId: input.onrampId }));
        if (expired === null) stuck = true;
        else status = expired;
        continue;
      }
    } else {
      // Held money is in custody: the onramp waits for the rest instead of expiring.
      await condition(() => queue.length > 0);
    }
    const deposit = queue.shift()!;
    // A deposit that cannot be credited is noted and skipped; the next one is still credited.
    status =
      (await step('deposit', () => activities.creditOnrampDeposit({ onrampId: input.onrampId, deposit }))) ??
      status;
  }

  stuck = false;
  if (status === 'funds_received' || status === 'sending_crypto') {
    const sent = await step('send', () => activities.sendOnrampCrypto({ onrampId: input.onrampId }));
    if (sent === null) stuck = true;
    else status = sent;
  }
  for (let checks = 0; status === 'sending_crypto' && !stuck; checks++) {
    if (checks >= checksPerRun) return continueAsNew<typeof onrampLifecycle>({ ...input, pending: queue });
    await sleep(checks < 20 ? '500 milliseconds' : '5 seconds');
    const checked = await step('transfer check', () =>
      activities.checkOnrampTransfer({ onrampId: input.onrampId }),
    );
    if (checked === null) stuck = true;
    else status = checked;
  }
  // Unused fiat goes back through the bank partner, then each deposit still queued (it came too late to
  // be credited) is recorded for return and returned too.
  for (let rounds = 0; ; rounds++) {
    if (rounds >= depositsPerRun) return continueAsNew<typeof onrampLifecycle>({ ...input, pending: queue });
    const returned = await activities.returnOnrampRefunds({ onrampId: input.onrampId });
    for (const id of returned.webhookDeliveryIds) await deliver(id);
    const deposit = queue.shift();
    if (!deposit) break;
    status =
      (await step('deposit', () => activities.creditOnrampDeposit({ onrampId: input.onrampId, deposit }))) ??
      status;
  }
  // A step noted as failed for good ends the run; a later deposit starts the onramp's workflow again.
  if (stuck) return { onrampId: input.onrampId, status };
  if (!terminal.has(status)) throw new Error(`onramp ${input.onrampId} stopped in status ${status}`);
  return { onrampId: input.onrampId, status };
}
