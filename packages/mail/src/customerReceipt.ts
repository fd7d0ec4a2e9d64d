/** The plain-text e-mail a shopper gets after checkout (spec §6.2). */
import type { ResolvedPayment } from '@checkout/core';
import { formatFields } from './formatFields.ts';
import { formatTimestamp } from './formatTimestamp.ts';
import { formatUsd } from './formatUsd.ts';
import { includedTax } from './includedTax.ts';
import { oneLine } from './oneLine.ts';
import { paymentDeviation } from './paymentDeviation.ts';

/** The product fields a receipt shows. */
export interface ReceiptProduct {
  name: string;
  /** The merchant's own text, put first; empty when unset. */
  email_body: string;
  /** Percentage already included in the price, a decimal string such as `20` or `8.25`. */
  tax_rate: string;
}

/** Input of customerReceipt. */
export interface CustomerReceiptInput {
  payment: ResolvedPayment;
  product: ReceiptProduct;
  /** Display name of the chain, e.g. `Ethereum`. */
  chainName: string;
  /** Link to the transaction on a block explorer. */
  explorerTxUrl?: string;
}

/** Subject and plain-text body of an e-mail. */
export interface MailContent {
  subject: string;
  text: string;
}

/** Test payment marker, worded as the spec's rule for `is_test`. */
export const testPaymentFlag = 'TEST PAYMENT — do not fulfil';

/** Subject and text of the shopper's receipt: the merchant's `email_body`, then the receipt itself. */
export function customerReceipt(input: CustomerReceiptInput): MailContent {
  const { payment: resolved, product, chainName } = input;
  const { payment } = resolved;
  const name = oneLine(product.name);
  const usd = formatUsd(resolved.dollar_amount);
  const failed = payment.tx_failure;
  const test = resolved.is_test ? '[TEST] ' : '';
  const subject = failed ? `${test}Payment failed: ${name}` : `${test}Your receipt for ${name} — ${usd} USD`;

  const flags: string[] = [];
  if (resolved.is_test) flags.push(`*** ${testPaymentFlag}. This was not a real purchase. ***`);
  if (failed) {
    flags.push(
      '*** FAILED TRANSACTION: the blockchain transaction did not succeed, so no payment was made. ***',
    );
  }

  const fields = formatFields([
    ['Product', name],
    ['Amount', `${usd} USD`],
    [
      `Tax included (${formatRate(product.tax_rate)} %)`,
      `${includedTax(resolved.dollar_amount, product.tax_rate)} USD`,
    ],
    [failed ? 'Sent' : 'Paid', `${payment.received_token_amount} ${oneLine(payment.received_token.symbol)}`],
    ['Chain', oneLine(chainName)],
    ['Transaction', payment.tx_id],
    ['Explorer', input.explorerTxUrl],
    ['Payment id', resolved.id],
    ['Date', formatTimestamp(payment.created_at)],
  ]);

  const notes: string[] = [];
  const deviation = failed ? undefined : paymentDeviation(payment.amount_difference);
  const expected = `${payment.expected_token_amount} ${oneLine(payment.expected_token.symbol)}`;
  const received = `${payment.received_token_amount} ${oneLine(payment.received_token.symbol)}`;
  const percent = payment.amount_difference.replace(/^[+-]/, '');
  if (deviation === 'under') {
    notes.push(
      `Note: you sent ${percent} % less than the amount due (expected ${expected}, received ${received}). ` +
        'The merchant may ask you to send the difference before your order is fulfilled.',
    );
  } else if (deviation === 'over') {
    notes.push(
      `Note: you sent ${percent} % more than the amount due (expected ${expected}, received ${received}). ` +
        'The merchant may arrange a partial refund.',
    );
  }
  if (failed) notes.push('If you still want to buy, please start a new checkout.');

  const body = product.email_body.trim();
  const sections = [...(body ? [body] : []), ['Receipt', '-------', ...flags].join('\n'), fields, ...notes];
  return { subject, text: `${sections.join('\n\n')}\n` };
}

/** `20.0000` → `20`, `8.25` stays: a rate reads best without trailing zeros. */
function formatRate(rate: string): string {
  return rate.includes('.') ? rate.replace(/\.?0+$/, '') : rate;
}
