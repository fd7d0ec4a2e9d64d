/**
 * The payout activities of `quoteLifecycle`: expire an unexecuted quote, move an executed quote's offramps
 * through the payout partner (`pending_internal_assessment → sending_fiat → fiat_sent | bounced | failed`),
 * apply the user's resend or refund request for a bounced payout, note a step that failed for good, and
 * complete the quote. Each offramp change is written with its `offramp_update` webhook (context.ts).
 */
import { printableText } from '@checkout/core';
import {
  type Database,
  inTransaction,
  listOfframpsOfQuote,
  type OfframpStatusValue,
  type SecretBox,
  setQuoteStatus,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { changeOfframp, loadOfframp, loadQuote, type QuoteActivityContext, unchanged } from './context.ts';
import { refundOf } from './offrampRefunds.ts';
import { payoutKey } from './payoutPartner.ts';
import {
  type OfframpStep,
  type QuoteActivities,
  quoteExpiredMessage,
  terminalOfframpStatuses,
} from './shared.ts';

type PayoutActivities = Pick<
  QuoteActivities,
  | 'expireQuote'
  | 'beginQuotePayouts'
  | 'submitOfframpPayout'
  | 'settleOfframpPayout'
  | 'resolveBouncedOfframp'
  | 'recordOfframpStepFailure'
  | 'completeQuote'
>;

/** Every offramp of the quote, its initiated ones moved to `to` when given. */
async function stepInitiated(
  trx: Kysely<Database>,
  secrets: SecretBox,
  quoteId: string,
  to?: { status: OfframpStatusValue; message: string | null },
): Promise<OfframpStep[]> {
  const offramps: OfframpStep[] = [];
  for (const row of await listOfframpsOfQuote(trx, quoteId)) {
    const moved =
      to && row.status === 'initiated'
        ? await changeOfframp(trx, secrets, row.id, { from: 'initiated', to: to.status, message: to.message })
        : null;
    offramps.push(moved ?? (await unchanged(trx, row)));
  }
  return offramps;
}

/** Builds the payout activities. */
export function createPayoutActivities({ db, secrets, partner }: QuoteActivityContext): PayoutActivities {
  return {
    async expireQuote({ quoteId }) {
      return inTransaction(db, async (trx) => {
        const quote = await loadQuote(trx, quoteId, true);
        // The workflow's timer is the authority: an execute committed before it fired has moved the quote on.
        const expired =
          quote.status === 'open' ? await setQuoteStatus(trx, quoteId, 'open', 'expired') : quote;
        const quoteStatus = expired?.status ?? quote.status;
        const to =
          quoteStatus === 'expired' ? { status: 'failed' as const, message: quoteExpiredMessage } : undefined;
        return { quoteStatus, offramps: await stepInitiated(trx, secrets, quoteId, to) };
      });
    },

    async beginQuotePayouts({ quoteId }) {
      return inTransaction(db, async (trx) => {
        const quote = await loadQuote(trx, quoteId, true);
        const to =
          quote.status === 'executed'
            ? { status: 'pending_internal_assessment' as const, message: null }
            : undefined;
        return { quoteStatus: quote.status, offramps: await stepInitiated(trx, secrets, quoteId, to) };
      });
    },

    async submitOfframpPayout({ offrampId }) {
      const step = await changeOfframp(
        db,
        secrets,
        offrampId,
        { from: 'pending_internal_assessment', to: 'sending_fiat', message: null },
        { payoutAttempt: true },
      );
      const row = await loadOfframp(db, offrampId);
      if (row.status !== 'sending_fiat') return { ...(await unchanged(db, row)), settleAfterMs: 0 };
      const { settleAfterMs } = await partner.submit(row, payoutKey(row));
      return { ...(step ?? (await unchanged(db, row))), settleAfterMs };
    },

    async settleOfframpPayout({ offrampId }) {
      const row = await loadOfframp(db, offrampId);
      if (row.status !== 'sending_fiat') return unchanged(db, row);
      const outcome = await partner.outcome(row);
      const step = await inTransaction(db, async (trx) => {
        const from = 'sending_fiat' as const;
        if (outcome.status === 'fiat_sent') {
          return changeOfframp(trx, secrets, offrampId, { from, to: 'fiat_sent', message: null });
        }
        if (outcome.status === 'bounced') {
          const currency = row.destination_currency.toUpperCase();
          const message = `${outcome.message} Resend it to another approved payment detail in ${currency}, or request a refund of the tokens.`;
          return changeOfframp(trx, secrets, offrampId, { from, to: 'bounced', message });
        }
        // A failed payout is final: its tokens go back to whoever sent the deposit.
        const quote = await loadQuote(trx, row.quote_id);
        const refund = refundOf(row, quote, quote.sender_address);
        const message = `${outcome.message} ${refund.text}`;
        return changeOfframp(trx, secrets, offrampId, { from, to: 'failed', message }, refund.extras);
      });
      return step ?? unchanged(db, await loadOfframp(db, offrampId));
    },

    async resolveBouncedOfframp({ offrampId }) {
      const step = await inTransaction(db, async (trx) => {
        const row = await loadOfframp(trx, offrampId, true);
        if (row.status !== 'bounced' || row.bounce_action === null) return null;
        if (row.bounce_action === 'resend') {
          return changeOfframp(
            trx,
            secrets,
            offrampId,
            { from: 'bounced', to: 'sending_fiat', message: null },
            { bounceAction: null, payoutAttempt: true },
          );
        }
        const quote = await loadQuote(trx, row.quote_id);
        const refund = refundOf(row, quote, row.refund_address);
        const message = `The payout bounced and a refund was requested. ${refund.text}`;
        return changeOfframp(
          trx,
          secrets,
          offrampId,
          { from: 'bounced', to: 'failed', message },
          { bounceAction: null, ...refund.extras },
        );
      });
      const row = await loadOfframp(db, offrampId);
      // The payout goes to the partner again, now to the newly chosen payment detail.
      if (step?.status === 'sending_fiat' && row.status === 'sending_fiat') {
        const { settleAfterMs } = await partner.submit(row, payoutKey(row));
        return { ...step, settleAfterMs };
      }
      return { ...(step ?? (await unchanged(db, row))), settleAfterMs: 0 };
    },

    async recordOfframpStepFailure({ offrampId, message }) {
      return inTransaction(db, async (trx) => {
        const row = await loadOfframp(trx, offrampId, true);
        const text = printableText(message);
        // A retried note (its first attempt committed) changes nothing and queues no second webhook.
        if (row.status_message === text) return unchanged(trx, row);
        const step = await changeOfframp(trx, secrets, offrampId, {
          from: row.status,
          to: row.status,
          message: text,
        });
        return step ?? unchanged(trx, row);
      });
    },

    async completeQuote({ quoteId }) {
      const offramps = await listOfframpsOfQuote(db, quoteId);
      const done = offramps.every(
        (o) => terminalOfframpStatuses.includes(o.status) && o.refund_status !== 'pending',
      );
      if (done) await setQuoteStatus(db, quoteId, 'executed', 'completed');
      const quote = await loadQuote(db, quoteId);
      return { quoteStatus: quote.status };
    },
  };
}
