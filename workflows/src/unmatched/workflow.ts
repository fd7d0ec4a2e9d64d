/**
 * `unmatchedTransfer`: one per unmatched transfer the merchant is told of (id `unmatched-<id>`), started in
 * the transaction that records it. It e-mails the merchant once, in a batch with the other transfers waiting
 * for an e-mail to that recipient (the claim makes a retried task send nothing more); the webhook is its own
 * delivery, started beside it. It then follows what becomes of the transfer until its fate is sealed
 * (`fateSealed`: dismissed, reversed, a top-up, the payment of the order it was attached to, or a confirmed
 * refund), for at most {@link followDays} days. Each change of the transfer, its refund or its checkout
 * signals it (`unmatchedTransferChanged`, ./follow.ts), and it reads the row again; a signal after it ended
 * starts it again. The Temporal UI lists it with the amount, the kind, the sender and its fate.
 */
import {
  condition,
  continueAsNew,
  log,
  proxyLocalActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import { localMailOptions, unlessFinal } from '../finalFailure.ts';
import { showStatus } from '../showStatus.workflow.ts';
import type { UnmatchedActivities } from './activities.ts';
import { type UnmatchedFate, type UnmatchedTransferInput, unmatchedTransferChangedSignal } from './shared.ts';
import { fateSealed, unmatchedStatus } from './status.ts';

// The e-mails and the reads of the row: local activities.
const local = proxyLocalActivities<UnmatchedActivities>(localMailOptions);

/** How long a transfer whose fate is not sealed is followed: past that the workflow ends, saying so. */
const followDays = 30;

/** Announces one unmatched transfer to its merchant, then follows its fate; what it sent and where it ended. */
export async function unmatchedTransfer(
  input: UnmatchedTransferInput,
): Promise<{ sent: number; status: UnmatchedFate['status'] }> {
  let changed = false;
  setHandler(unmatchedTransferChangedSignal, () => {
    changed = true;
  });
  const followUntil = input.followUntil ?? Date.now() + followDays * 86_400_000;
  const announced = input.announced ? Promise.resolve(0) : announce(input);
  for (;;) {
    changed = false;
    const fate = await local.readUnmatchedFate({ unmatchedTransferId: input.unmatchedTransferId });
    showStatus(unmatchedStatus(fate, { followUntil, ended: false }));
    if (fateSealed(fate)) return { sent: await announced, status: fate.status };
    if (workflowInfo().continueAsNewSuggested) {
      await announced;
      await continueAsNew<typeof unmatchedTransfer>({ ...input, followUntil, announced: true });
    }
    const left = followUntil - Date.now();
    if (left > 0 && (await condition(() => changed, left))) continue;
    showStatus(unmatchedStatus(fate, { followUntil, ended: true }));
    return { sent: await announced, status: fate.status };
  }
}

/**
 * Tells the merchant of the transfer: in the next batch of e-mails to its recipient, waiting while the last
 * batch is too recent (at most one a recipient per interval). How many e-mails it sent.
 */
async function announce(input: UnmatchedTransferInput): Promise<number> {
  const transfer = { unmatchedTransferId: input.unmatchedTransferId };
  return unlessFinal(
    async () => {
      for (;;) {
        const result = await local.sendUnmatchedTransferEmail(transfer);
        if (!result.waitMs) return result.sent;
        await sleep(result.waitMs);
      }
    },
    (final) => {
      log.error('the unmatched transfer e-mail failed for good', { ...transfer, type: final.type });
      return 0;
    },
  );
}
