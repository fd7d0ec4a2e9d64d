/**
 * Offramps added to an open quote, and the quote checks its routes share: each offramp is checked against
 * the user's payment detail and priced from the fee and FX tables by `priceOfframp`, the one price the
 * quote's rate endpoint also gives. The whole batch is refused on the first problem (see
 * docs/area-b-decisions.md, "Offramps"), and the rows are written under the quote's lock.
 */
import { randomUUID } from 'node:crypto';
import {
  ApiError,
  centsToDecimal,
  type FeeRule,
  type FieldError,
  fiatDecimals,
  maxOfframpAmount,
  notFound,
  type OfframpsCreateBody,
  parseUnits,
  priceOfframp,
  recordInvalid,
  tokenUnitsForFiat,
} from '@checkout/core';
import {
  type Database,
  findPaymentDetail,
  findQuoteById,
  insertOfframps,
  inTransaction,
  type NewOfframpRow,
  type OfframpRow,
  type QuoteRow,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import type { z } from 'zod';

/** Destination amounts above which an offramp needs a supporting document, in fiat cents per currency. */
export const supportingDocumentThresholdCents: Readonly<Record<string, bigint>> = {
  eur: 1_500_000n,
  usd: 1_000_000n,
};

const maxOfframpCents = parseUnits(maxOfframpAmount, fiatDecimals);

/** True when `fiatCents` of `currency` needs a supporting document; other currencies go by their USD value. */
export function needsSupportingDocument(currency: string, fiatCents: bigint, rate: string): boolean {
  const threshold = supportingDocumentThresholdCents[currency];
  if (threshold !== undefined) return fiatCents > threshold;
  const scale = rate.includes('.') ? rate.length - rate.indexOf('.') - 1 : 0;
  const usdThreshold = supportingDocumentThresholdCents.usd ?? 0n;
  // fiat / rate > threshold, cross-multiplied so no division rounds.
  return fiatCents * 10n ** BigInt(scale) > usdThreshold * parseUnits(rate, scale);
}

export const quoteAlreadyExecuted = (more = '') =>
  new ApiError('quote_already_executed', `The quote has already been executed${more}`);
export const quoteExpired = (more = '') =>
  new ApiError('quote_expired', `The quote has expired; create a new quote${more}`);

/** True when the quote was executed (it may have completed since). */
export function isExecuted(quote: QuoteRow): boolean {
  return quote.crypto_transfer !== null || quote.status === 'executed' || quote.status === 'completed';
}

/** True when the quote's expiry passed, whether or not its workflow has marked it expired yet. */
export function isExpired(quote: QuoteRow): boolean {
  return quote.status === 'expired' || quote.expires_at.getTime() <= Date.now();
}

/** The quote locked for this transaction, refused unless it still takes offramps. */
export async function lockOpenQuote(trx: Kysely<Database>, quote: QuoteRow): Promise<QuoteRow> {
  const locked = await findQuoteById(trx, quote.id, true);
  if (!locked) throw notFound('Quote');
  if (isExecuted(locked)) throw quoteAlreadyExecuted();
  if (isExpired(locked) || locked.status !== 'open') throw quoteExpired();
  return locked;
}

/** The fee rules per currency and rail, and the FX rates (fiat per token), offramps are priced from. */
export interface OfframpTables {
  offrampFees: readonly FeeRule[];
  fxRates: Readonly<Record<string, string>>;
}

/** One offramp as asked for. */
export type OfframpRequest = z.infer<typeof OfframpsCreateBody>['offramps'][number];

/** Checks, prices and adds offramps to an open quote of the user; the rows written. */
export async function addOfframps(
  db: Kysely<Database>,
  tables: OfframpTables,
  input: { quote: QuoteRow; offramps: readonly OfframpRequest[] },
): Promise<OfframpRow[]> {
  const { quote } = input;
  const scope = { merchantId: quote.merchant_id, userId: quote.user_id };
  const errors: FieldError[] = [];
  const rows: NewOfframpRow[] = [];
  for (const [i, offramp] of input.offramps.entries()) {
    const path = (field: string) => `offramps.${i}.${field}`;
    const detail = await findPaymentDetail(db, scope, offramp.payment_detail_id);
    if (!detail) {
      errors.push({ path: path('payment_detail_id'), message: 'does not exist' });
      continue;
    }
    if (detail.status !== 'approved') {
      throw new ApiError(
        'payment_detail_not_approved',
        `Payment detail ${detail.id} is ${detail.status}, not approved`,
        { errors: [{ path: path('payment_detail_id'), message: `is ${detail.status}` }] },
      );
    }
    if (offramp.destination_currency !== detail.currency) {
      throw new ApiError(
        'currency_mismatch',
        `The destination currency ${offramp.destination_currency} is not the payment detail's ${detail.currency}`,
        { errors: [{ path: path('destination_currency'), message: `must be ${detail.currency}` }] },
      );
    }
    const rails = offramp.rails ?? detail.rails ?? 'local';
    if (detail.rails === 'swift' && rails !== 'swift') {
      errors.push({ path: path('rails'), message: 'must be swift for a SWIFT payment detail' });
      continue;
    }
    const rule = tables.offrampFees.find(
      (r) => r.currency === offramp.destination_currency && r.rail === rails,
    );
    const rate = tables.fxRates[offramp.destination_currency];
    if (!rule || !rate) {
      errors.push({ path: path('rails'), message: `${rails} is not available for ${detail.currency}` });
      continue;
    }
    const amount = parseUnits(offramp.destination_amount, fiatDecimals);
    if (amount <= 0n) {
      errors.push({ path: path('destination_amount'), message: 'must be positive' });
      continue;
    }
    if (amount > maxOfframpCents) {
      errors.push({ path: path('destination_amount'), message: `must be at most ${maxOfframpAmount}` });
      continue;
    }
    const documentUrl =
      offramp.supporting_document_url ?? offramp.supporting_document_attributes?.submitted_url ?? null;
    if (!documentUrl && (rails === 'swift' || needsSupportingDocument(detail.currency, amount, rate))) {
      errors.push({
        path: path('supporting_document_attributes.submitted_url'),
        message: 'is required above 15000 EUR or 10000 USD and for SWIFT payouts',
      });
      continue;
    }
    const price = priceOfframp({ fiatCents: amount }, rule, rate, quote.token_decimals);
    rows.push({
      id: randomUUID(),
      quote_id: quote.id,
      user_id: quote.user_id,
      merchant_id: quote.merchant_id,
      payment_detail_id: detail.id,
      status: 'initiated',
      status_message: null,
      destination_amount: centsToDecimal(price.fiatCents),
      destination_currency: offramp.destination_currency,
      rails,
      reference: offramp.reference ?? null,
      rate,
      fee: centsToDecimal(price.feeCents),
      token_amount: price.tokenUnits.toString(),
      // The fee's share of the tokens, at the same rate and rounding.
      token_fee: tokenUnitsForFiat(price.feeCents, rate, quote.token_decimals).toString(),
      supporting_document_url: documentUrl,
      metadata: offramp.metadata ?? null,
    });
  }
  if (errors.length > 0) throw recordInvalid(errors);
  return inTransaction(db, async (trx) => {
    await lockOpenQuote(trx, quote);
    return insertOfframps(trx, rows);
  });
}
