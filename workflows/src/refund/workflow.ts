/**
 * `refund`: one per refund (id `refund-<id>`), started in the transaction that requests it. It follows the
 * refund through its states and announces each by e-mail once (the webhooks are queued by each change):
 *
 * - `awaiting_address`: waits for the customer's address (a signal), reminds the customer at half the claim
 *   window, and at its end expires the refund;
 * - `ready_to_pay`: waits for the merchant's transfer, which the chain's watcher recognises (a signal); a
 *   transfer of another amount is recorded against it, and the merchant is e-mailed what it paid and what is
 *   still due (or, once more than the refund was sent, how much more); such a part payment is looked at until
 *   it has the chain's confirmations, and forgotten if a reorganisation takes it away;
 * - `sent`: looks at the transaction until it has the chain's confirmations (sooner while blocks come,
 *   less often while nothing moves), then the refund is `confirmed`;
 * - `confirmed`, `canceled`, `expired`: final.
 *
 * Every change of the row signals it (`refundChanged`), so it reads the row again; it never decides from
 * what it remembers. The Temporal UI shows where it stands (the `Summary` attribute and current details).
 */
import {
  condition,
  continueAsNew,
  log,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { localMailOptions, unlessFinal } from '../finalFailure.ts';
import { showStatus } from '../showStatus.workflow.ts';
import { refundStatus } from '../summaries.ts';
import type { RefundActivities, RefundView } from './activities.ts';
import { type RefundInput, refundChangedSignal, refundExpireNowSignal } from './shared.ts';

// Reading the row and the e-mails: local activities, each e-mail claimed before it is sent.
const local = proxyLocalActivities<RefundActivities>(localMailOptions);

// Changes that queue workflow calls, and looks at the chain: ordinary activities.
const steps = proxyActivities<RefundActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

const finalStatuses: readonly string[] = ['confirmed', 'canceled', 'expired'];
/** The longest wait between two looks at a sent refund's transaction. */
const maxConfirmWaitMs = 5 * 60_000;

/** Follows one refund to a final status; the status it ended in. */
export async function refund(input: RefundInput): Promise<{ status: string }> {
  let changed = false;
  setHandler(refundChangedSignal, () => {
    changed = true;
  });
  // The sandbox's "expire now": the claim window ends at once, and the refund expires as at its end.
  let expireNow = false;
  setHandler(refundExpireNowSignal, () => {
    expireNow = true;
  });
  const announced = new Set<string>();
  let reminded = false;
  let lastConfirmations = -1;
  let stalled = 0;
  let partLooks = 0;
  for (;;) {
    changed = false;
    const row = await local.readRefund(input);
    const expiresAt = Date.parse(row.claimExpiresAt);
    const createdAt = Date.parse(row.createdAt);
    const remindAt = createdAt + Math.floor((expiresAt - createdAt) / 2);
    if (row.status !== 'awaiting_address' || Date.now() >= remindAt) reminded = true;
    show(row, { remindAt: reminded ? null : remindAt });
    if (!announced.has(row.status)) {
      await mailSafely('the refund e-mails', () => local.sendRefundEmails({ ...input, status: row.status }));
      announced.add(row.status);
    }
    // A transfer of another amount (a part payment, or more than the refund): the merchant is told of each sum.
    const paidAmount = row.paidAmount;
    if (paidAmount !== undefined && paidAmount !== '0' && !announced.has(`paid:${paidAmount}`)) {
      await mailSafely('the refund paid notice', () => local.sendRefundPaidNotice({ ...input, paidAmount }));
      announced.add(`paid:${paidAmount}`);
    }
    if (finalStatuses.includes(row.status)) return { status: row.status };
    if (workflowInfo().continueAsNewSuggested) await continueAsNew<typeof refund>(input);

    if (row.status === 'awaiting_address') {
      if (!reminded && !expireNow) {
        if (await condition(() => changed || expireNow, remindAt - Date.now())) continue;
        await mailSafely('the refund reminder', () => local.sendRefundReminder(input));
        reminded = true;
        continue;
      }
      const left = expireNow ? 0 : expiresAt - Date.now();
      if (left > 0 && (await condition(() => changed || expireNow, left))) continue;
      await steps.expireRefund(input);
    } else if (row.status === 'ready_to_pay') {
      // Its part payments are looked at until deep enough: a reorganisation may take one away.
      const parts =
        row.paidAmount !== '0' ? await steps.checkRefundPartPayments(input) : { unsettled: 0, waitMs: 0 };
      if (parts.unsettled > 0) {
        // Less and less often while one stays short of its confirmations (pending, a provider behind).
        const waitMs = Math.min(parts.waitMs * 2 ** Math.min(partLooks, 8), maxConfirmWaitMs);
        partLooks = (await condition(() => changed, waitMs)) ? 0 : partLooks + 1;
      } else await condition(() => changed);
    } else {
      const check = await steps.checkRefundConfirmation(input);
      if (check.status !== 'sent') continue;
      stalled = check.confirmations > lastConfirmations ? 0 : stalled + 1;
      lastConfirmations = check.confirmations;
      show(row, { remindAt: null, confirmations: { have: check.confirmations, need: check.required } });
      // While confirmations come, the next look is when enough blocks should be there; while nothing
      // moves (a provider down, a transaction dropped), less and less often.
      await condition(() => changed, Math.min(check.waitMs * 2 ** Math.min(stalled, 8), maxConfirmWaitMs));
    }
  }
}

/** Shows where the refund stands in the Temporal UI. */
function show(
  row: RefundView,
  extra: { remindAt: number | null; confirmations?: { have: number; need: number } },
): void {
  showStatus(
    refundStatus(row, {
      status: row.status,
      claimExpiresAt: Date.parse(row.claimExpiresAt),
      remindAt: extra.remindAt,
      txHash: row.txHash,
      confirmations: extra.confirmations,
    }),
  );
}

/** Sends e-mails; one that fails for good is logged, and the refund goes on. */
async function mailSafely(what: string, send: () => Promise<{ sent: number }>): Promise<void> {
  await unlessFinal(send, (final) => log.error(`${what} failed for good`, { type: final.type }));
}
