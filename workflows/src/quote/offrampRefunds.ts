/**
 * A failed payout's refund: the offramp's whole token cost goes back from the treasury, exactly once (the
 * signed transfer is recorded on the offramp before its broadcast), and its `status_message` says so.
 */
import { formatUnits, normalizeDecimal, parseUnits } from '@checkout/core';
import {
  type OfframpChangeExtras,
  type OfframpRow,
  type QuoteRow,
  recordOfframpRefundTransfer,
} from '@checkout/db';
import { changeOfframp, loadOfframp, loadQuote, type QuoteActivityContext, unchanged } from './context.ts';
import type { QuoteActivities } from './shared.ts';

/** The offramp's tokens (fee included) as a decimal of the quote's token: what a refund returns. */
function refundAmountOf(row: OfframpRow, quote: QuoteRow): string {
  return formatUnits(BigInt(normalizeDecimal(row.token_amount)), quote.token_decimals);
}

/** The sentence of a refund under way, or (with its transaction) done. */
function refundSentence(amount: string, quote: QuoteRow, address: string, hash?: string): string {
  const what = `${normalizeDecimal(amount)} ${quote.deposit_token.toUpperCase()} to ${address}`;
  return hash ? `Refunded ${what} in transaction ${hash}.` : `Refunding ${what}.`;
}

/** The message of a refunded (or unrefundable) offramp: the reason it failed, then the refund's outcome. */
function refundedMessage(row: OfframpRow, quote: QuoteRow, outcome: string): string {
  const pending = refundSentence(row.refund_amount ?? '0', quote, row.refund_address ?? '');
  const message = row.status_message ?? '';
  const reason = message.endsWith(pending) ? message.slice(0, -pending.length).trim() : '';
  return `${reason || 'The payout was not made.'} ${outcome}`;
}

/** What a refund owes: the whole offramp back to `address`, or nothing when no address is known. */
export function refundOf(
  row: OfframpRow,
  quote: QuoteRow,
  address: string | null,
): { extras: OfframpChangeExtras; text: string } {
  if (!address) {
    return {
      extras: {},
      text: 'The sender of the deposit is unknown, so no refund could be sent; contact support.',
    };
  }
  const amount = refundAmountOf(row, quote);
  return {
    extras: { refund: { status: 'pending', address, amount } },
    text: refundSentence(amount, quote, address),
  };
}

/** Builds the activities that send and check a failed payout's refund. */
export function createOfframpRefundActivities(
  context: QuoteActivityContext,
): Pick<QuoteActivities, 'sendOfframpRefund' | 'checkOfframpRefund'> {
  const { db, secrets, treasury } = context;
  /** The refund as a treasury payment, recorded on the offramp row. */
  const refundPaymentOf = (row: OfframpRow, quote: QuoteRow) =>
    context.tokenPayment(
      quote,
      row.refund_address ?? '',
      parseUnits(normalizeDecimal(row.refund_amount ?? '0'), quote.token_decimals),
      {
        load: async () => {
          const current = await loadOfframp(db, row.id);
          return {
            hash: current.refund_tx_hash,
            serialized: current.refund_tx_serialized,
            nonce: current.refund_tx_nonce,
          };
        },
        record: (previousHash, tx) => recordOfframpRefundTransfer(db, row.id, previousHash, tx),
      },
    );

  return {
    async sendOfframpRefund({ offrampId }) {
      const row = await loadOfframp(db, offrampId);
      if (row.status !== 'failed' || row.refund_status !== 'pending' || !row.refund_address) {
        return unchanged(db, row);
      }
      const quote = await loadQuote(db, row.quote_id);
      await treasury.send(refundPaymentOf(row, quote));
      return unchanged(db, await loadOfframp(db, offrampId));
    },

    async checkOfframpRefund({ offrampId }) {
      const row = await loadOfframp(db, offrampId);
      if (row.status !== 'failed' || row.refund_status !== 'pending' || !row.refund_tx_hash) {
        return { ...(await unchanged(db, row)), transfer: 'none' };
      }
      const quote = await loadQuote(db, row.quote_id);
      const check = await treasury.check(refundPaymentOf(row, quote));
      if (check.state === 'none' || check.state === 'pending')
        return { ...(await unchanged(db, row)), transfer: 'pending' };
      const confirmed = check.state === 'confirmed';
      const outcome = confirmed
        ? refundSentence(row.refund_amount ?? '0', quote, row.refund_address ?? '', check.hash)
        : `The refund transfer ${check.hash} reverted on chain; contact support.`;
      const step = await changeOfframp(
        db,
        secrets,
        offrampId,
        { from: 'failed', to: 'failed', message: refundedMessage(row, quote, outcome) },
        { refund: { status: confirmed ? 'sent' : 'failed' } },
      );
      return {
        ...(step ?? (await unchanged(db, await loadOfframp(db, offrampId)))),
        transfer: confirmed ? 'confirmed' : 'reverted',
      };
    },
  };
}
