/**
 * What the Temporal UI shows of an unmatched transfer's workflow: the `Summary` line (`Unmatched transfer
 * 7 BUSD · wrong amount · from 0x7099…79C8 · refund sent`) and the current details, from what became of the
 * transfer (its fate). Safe to import inside the workflow sandbox.
 */
import { headline, items, type ShownStatus, summaryLine, time } from '../summaries.ts';
import type { UnmatchedFate } from './shared.ts';

/**
 * Whether the transfer's fate is sealed: dismissed, reversed, topped up a payment, paid the expected
 * payment it was attached to (its checkout recorded it), or refunded by a confirmed refund. An open one, one
 * whose checkout is still checking it and one whose refund is not confirmed may still change.
 */
export function fateSealed(fate: UnmatchedFate): boolean {
  switch (fate.status) {
    case 'open':
      return false;
    case 'attached':
      return fate.expectedPayment === null || ['paid', 'failed'].includes(fate.expectedPayment.status);
    case 'refunded':
      return fate.refund?.status === 'confirmed';
    default:
      return true;
  }
}

/** The fate in a few words: `open`, `attached, being checked`, `refund sent`, `refunded`, `dismissed`… */
function fateWords(fate: UnmatchedFate): string {
  if (fate.status === 'attached' && !fateSealed(fate)) return 'attached, being checked';
  if (fate.status === 'refunded' && fate.refund && !fateSealed(fate))
    return `refund ${fate.refund.status.replace(/_/g, ' ')}`;
  return fate.status;
}

/** What the fate means, one line (Markdown). */
function fateLine(fate: UnmatchedFate): string {
  const payment = fate.resolvedPaymentId && `resolved payment \`${fate.resolvedPaymentId}\``;
  const expected = fate.expectedPayment && `expected payment \`${fate.expectedPayment.id}\``;
  const refund = fate.refund && `refund \`${fate.refund.id}\``;
  switch (fate.status) {
    case 'open':
      return `${headline('open')}: the merchant may attach it to an order, refund it or dismiss it`;
    case 'attached':
      if (!expected) return `${headline('attached')} to ${payment} as a top-up`;
      if (!fateSealed(fate)) return `${headline('attached')} to ${expected}: its checkout is checking it`;
      return `${headline('attached')} to ${expected}: its checkout recorded it as ${payment}`;
    case 'refunded':
      if (fateSealed(fate)) return `${headline('refunded')}: ${refund} is confirmed`;
      return `${headline(fateWords(fate))}: ${refund} is ${fate.refund?.status.replace(/_/g, ' ') ?? 'missing'}`;
    case 'dismissed':
      return `${headline('dismissed')} by the merchant`;
    case 'reversed':
      return `${headline('reversed')}: a reorganisation took its transaction off the chain; nothing arrived`;
    default:
      return `${headline('missing')}: the transfer was never recorded`;
  }
}

/**
 * The transfer's `Summary` line and details while its workflow follows it (until `followUntil`, epoch
 * milliseconds), or once it stopped following (`ended`: the follow window is over with the fate unsealed).
 */
export function unmatchedStatus(
  fate: UnmatchedFate,
  follow: { followUntil: number; ended: boolean },
): ShownStatus {
  const words = fateWords(fate);
  const sealed = fateSealed(fate);
  const title = fate.title || 'Unmatched transfer';
  return {
    summary: summaryLine(title, follow.ended && !sealed ? `${words}, no longer followed` : words),
    details: items([
      fateLine(fate),
      !sealed &&
        (follow.ended
          ? `no longer followed since ${time(follow.followUntil)}: a change to it follows it again`
          : `followed until ${time(follow.followUntil)}, or until its fate is sealed`),
    ]),
  };
}
