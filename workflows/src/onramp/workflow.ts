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
  patched,
  proxyActivities,
  setHandler,
  sleep,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { AccountId, OnrampStatus, UserId } from '../shared.ts';
import { startDeliveryChild } from '../webhookDelivery/child.ts';
import {
  type OnrampActivities,
  type OnrampDeposit,
  type OnrampLifecycleInput,
  type OnrampLifecycleResult,
  type OnrampStep,
  onrampDepositSignal,
  onrampRefundsPatch,
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
  const apply = async (step: OnrampStep): Promise<string> => {
    upsertSearchAttributes([{ key: OnrampStatus, value: step.status }]);
    await deliver(step.webhookDeliveryId);
    return step.status;
  };

  let status = await apply(await activities.loadOnramp({ onrampId: input.onrampId }));
  for (let handled = 0; status === 'initiated' || status === 'held'; handled++) {
    if (handled >= depositsPerRun) {
      return continueAsNew<typeof onrampLifecycle>({ ...input, pending: queue });
    }
    if (status === 'initiated') {
      const remaining = Date.parse(input.expiresAt) - Date.now();
      const arrived = remaining > 0 && (await condition(() => queue.length > 0, remaining));
      if (!arrived) {
        status = await apply(await activities.expireOnramp({ onrampId: input.onrampId }));
        continue;
      }
    } else {
      // Held money is in custody: the onramp waits for the rest instead of expiring.
      await condition(() => queue.length > 0);
    }
    const deposit = queue.shift()!;
    status = await apply(await activities.creditOnrampDeposit({ onrampId: input.onrampId, deposit }));
  }

  if (status === 'funds_received' || status === 'sending_crypto') {
    status = await apply(await activities.sendOnrampCrypto({ onrampId: input.onrampId }));
  }
  for (let checks = 0; status === 'sending_crypto'; checks++) {
    if (checks >= checksPerRun) return continueAsNew<typeof onrampLifecycle>({ ...input, pending: queue });
    await sleep(checks < 20 ? '500 milliseconds' : '5 seconds');
    status = await apply(await activities.checkOnrampTransfer({ onrampId: input.onrampId }));
  }
  if (patched(onrampRefundsPatch)) {
    // Unused fiat goes back through the bank partner, then each deposit still queued (it came too late to
    // be credited) is recorded for return and returned too.
    for (let rounds = 0; ; rounds++) {
      if (rounds >= depositsPerRun)
        return continueAsNew<typeof onrampLifecycle>({ ...input, pending: queue });
      const returned = await activities.returnOnrampRefunds({ onrampId: input.onrampId });
      for (const id of returned.webhookDeliveryIds) await deliver(id);
      const deposit = queue.shift();
      if (!deposit) break;
      status = await apply(await activities.creditOnrampDeposit({ onrampId: input.onrampId, deposit }));
    }
  }
  if (!terminal.has(status)) throw new Error(`onramp ${input.onrampId} stopped in status ${status}`);
  return { onrampId: input.onrampId, status };
}
