/** Onramp, quote and offramp rows as their wire shapes (spec 2.6, 2.7; research §7, §9). */
import { decimalToJsonNumber, formatUnits, normalizeDecimal } from '@checkout/core';
import type {
  OfframpRow,
  OnrampRefundReason,
  OnrampRow,
  QuoteRefundReason,
  QuoteRefundRow,
  QuoteRow,
  RefundStatus,
  StoredCryptoTransfer,
} from '../rampsSchema.ts';

const num = (decimal: string) => decimalToJsonNumber(normalizeDecimal(decimal));

/** Bank instructions of an onramp, shown by create only. */
export interface DepositInstructions {
  bank_account_number: string;
  bank_name: string;
  bank_address: string;
  bank_beneficiary_name: string;
  bank_routing_number: string;
  deposit_message: string;
}

/** An onramp as the API and the `onramp_update` webhook show it. */
export interface OnrampView {
  id: string;
  user_id: string;
  status: string;
  status_message: string | null;
  crypto_currency: string;
  crypto_rails: string;
  destination_amount: number;
  fee: number;
  destination_address: string;
  fiat_currency: string;
  fiat_rails: string;
  deposit_amount: number;
  received_amount: number;
  tx_id: string | null;
  /** Extension: fiat returned to the sending account through the bank partner. */
  refunds: OnrampRefundView[];
  deposit_instructions?: DepositInstructions;
}

/** Fiat an onramp returns through the bank partner. */
export interface OnrampRefundView {
  reason: OnrampRefundReason;
  /** The deposit returned (in part, for `excess`); null for a failed onramp's whole deposit. */
  deposit_id: string | null;
  amount: number;
  status: RefundStatus;
  /** The bank partner's reference of the return, once sent. */
  reference: string | null;
}

/** One onramp; `bank` adds the create-only deposit instructions. */
export function presentOnramp(
  row: OnrampRow,
  bank?: Omit<DepositInstructions, 'deposit_message'>,
): OnrampView {
  return {
    id: row.id,
    user_id: row.user_id,
    status: row.status,
    status_message: row.status_message,
    crypto_currency: row.crypto_currency,
    crypto_rails: row.crypto_rails,
    destination_amount: num(row.destination_amount),
    fee: num(row.fee),
    destination_address: row.destination_address,
    fiat_currency: row.fiat_currency,
    fiat_rails: row.fiat_rails,
    deposit_amount: num(row.deposit_amount),
    received_amount: num(row.received_amount),
    // Shown once the transfer is final, so a hash that may still be replaced is never published.
    tx_id: row.status === 'crypto_sent' ? row.tx_hash : null,
    refunds: (row.refunds ?? []).map((r) => ({
      reason: r.reason,
      deposit_id: r.deposit_id,
      amount: num(r.amount),
      status: r.status,
      reference: r.status === 'sent' ? r.reference : null,
    })),
    ...(bank ? { deposit_instructions: { ...bank, deposit_message: row.deposit_message } } : {}),
  };
}

/** An offramp as the API and the `offramp_update` webhook show it. */
export interface OfframpView {
  id: string;
  user_id: string;
  payment_detail_id: string;
  quote_id: string;
  status: string;
  status_message: string | null;
  destination_amount: number;
  destination_currency: string;
  reference: string | null;
  rails: string;
  rate: number;
  fee: number;
  supporting_document: { submitted_url: string; status: 'not_checked' } | null;
  metadata: Record<string, unknown> | null;
  /** Extension: the return of a failed payout's tokens to the sender; null when none is owed. */
  refund: OfframpRefundView | null;
}

/** The refund of an offramp's deposit tokens; `tx_id` is shown once the transfer is final. */
export interface OfframpRefundView {
  status: 'pending' | 'sent' | 'failed';
  address: string | null;
  /** In the quote's deposit token. */
  amount: number | null;
  tx_id: string | null;
}

/** One offramp. */
export function presentOfframp(row: OfframpRow): OfframpView {
  return {
    id: row.id,
    user_id: row.user_id,
    payment_detail_id: row.payment_detail_id,
    quote_id: row.quote_id,
    status: row.status,
    status_message: row.status_message,
    destination_amount: num(row.destination_amount),
    destination_currency: row.destination_currency,
    reference: row.reference,
    rails: row.rails,
    rate: num(row.rate),
    fee: num(row.fee),
    supporting_document: row.supporting_document_url
      ? { submitted_url: row.supporting_document_url, status: 'not_checked' }
      : null,
    metadata: row.metadata as Record<string, unknown> | null,
    refund: row.refund_status
      ? {
          status: row.refund_status,
          address: row.refund_address,
          amount: row.refund_amount === null ? null : num(row.refund_amount),
          tx_id: row.refund_status === 'sent' ? row.refund_tx_hash : null,
        }
      : null,
  };
}

/** Token base units the quote's offramps need: the payout and the fee part. */
export function quoteTotals(offramps: readonly OfframpRow[]): { amount: bigint; fees: bigint } {
  let amount = 0n;
  let fees = 0n;
  for (const o of offramps) {
    amount += BigInt(normalizeDecimal(o.token_amount));
    fees += BigInt(normalizeDecimal(o.token_fee));
  }
  return { amount, fees };
}

/** Tokens a quote returns to their sender because no payout uses them. */
export interface QuoteRefundView {
  reason: QuoteRefundReason;
  status: RefundStatus;
  address: string;
  /** In the quote's deposit token. */
  amount: number;
  /** The incoming transaction returned. */
  deposit_tx_id: string;
  /** The refund transfer, once final. */
  tx_id: string | null;
}

/** One refund of a quote. */
export function presentQuoteRefund(row: QuoteRefundRow, quote: QuoteRow): QuoteRefundView {
  return {
    reason: row.reason,
    status: row.status,
    address: row.address,
    amount: decimalToJsonNumber(formatUnits(BigInt(normalizeDecimal(row.amount)), quote.token_decimals)),
    deposit_tx_id: row.deposit_tx_hash,
    tx_id: row.status === 'sent' ? row.tx_hash : null,
  };
}

/**
 * A quote with its deposit address, transfer and offramps (the `adddress` key has three d's, as specified),
 * plus the extension `quote.refunds` (the quote's refunds, oldest first; none for a new quote).
 */
export function presentQuote(
  row: QuoteRow,
  offramps: readonly OfframpRow[],
  refunds: readonly QuoteRefundRow[] = [],
) {
  const totals = quoteTotals(offramps);
  const rates: Record<string, number> = {};
  for (const o of offramps) rates[o.destination_currency] = num(o.rate);
  return {
    quote: {
      id: row.id,
      user_id: row.user_id,
      deposit_token: row.deposit_token,
      deposit_token_chain: row.deposit_token_chain,
      deposit_token_amount: decimalToJsonNumber(formatUnits(totals.amount, row.token_decimals)),
      fees: decimalToJsonNumber(formatUnits(totals.fees, row.token_decimals)),
      expiry: Math.floor(row.expires_at.getTime() / 1000),
      executed: row.crypto_transfer !== null,
      rates,
      refunds: refunds.map((r) => presentQuoteRefund(r, row)),
    },
    deposit_address: { adddress: row.deposit_address, blockchain: row.deposit_token_chain },
    crypto_transfer: row.crypto_transfer as StoredCryptoTransfer | null,
    offramps: offramps.map(presentOfframp),
  };
}
