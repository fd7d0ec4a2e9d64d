/** The plain-text e-mail a shopper gets after checkout (spec §6.2). */
import type { ResolvedPayment } from '@checkout/core';
import { formatFields } from './formatFields.ts';
import { formatTimestamp } from './formatTimestamp.ts';
import { includedTax } from './includedTax.ts';
import { formatDecimalIn, formatUsdIn } from './localeAmount.ts';
import { oneLine } from './oneLine.ts';
import { paymentDeviation } from './paymentDeviation.ts';
import { receiptLocaleOf, receiptWords } from './receiptLanguage.ts';

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
  /**
   * The shopper's language tag (BCP 47) as the element sent it: its language picks the words (en, es, pt; any
   * other reads English) and the tag formats the figures as the element did. The merchant's `email_body` is shown
   * as written.
   */
  locale?: string | null | undefined;
}

/** Subject and plain-text body of an e-mail. */
export interface MailContent {
  subject: string;
  text: string;
  /** The shop the message speaks for, shown before the service's sender name (`Shop via Stable Checkout`). */
  fromName?: string;
}

/** Subject and text of the shopper's receipt: the merchant's `email_body`, then the receipt itself. */
export function customerReceipt(input: CustomerReceiptInput): MailContent {
  const { payment: resolved, product, chainName } = input;
  const { language, locale } = receiptLocaleOf(input.locale);
  const words = receiptWords[language];
  const { payment } = resolved;
  const name = oneLine(product.name);
  const usd = formatUsdIn(resolved.dollar_amount, locale);
  const tokens = (amount: string, symbol: string) => `${formatDecimalIn(amount, locale)} ${oneLine(symbol)}`;
  const received = tokens(payment.received_token_amount, payment.received_token.symbol);
  const failed = payment.tx_failure;
  const test = resolved.is_test ? words.testSubject : '';
  const subject = `${test}${failed ? words.failedSubject(name) : words.subject(name, usd)}`;

  const flags: string[] = [];
  if (resolved.is_test) flags.push(words.test);
  if (failed) flags.push(words.failed);

  const fields = formatFields([
    [words.product, name],
    [words.amount, usd],
    [
      words.taxIncluded(formatDecimalIn(formatRate(product.tax_rate), locale)),
      formatUsdIn(includedTax(resolved.dollar_amount, product.tax_rate), locale),
    ],
    [failed ? words.sent : words.paid, received],
    [words.chain, oneLine(chainName)],
    [words.transaction, payment.tx_id],
    [words.explorer, input.explorerTxUrl],
    [words.paymentId, resolved.id],
    [words.date, formatTimestamp(payment.created_at)],
  ]);

  const notes: string[] = [];
  const deviation = failed ? undefined : paymentDeviation(payment.amount_difference);
  const expected = tokens(payment.expected_token_amount, payment.expected_token.symbol);
  const percent = formatDecimalIn(payment.amount_difference.replace(/^[+-]/, ''), locale);
  if (deviation === 'under') notes.push(words.under(percent, expected, received));
  else if (deviation === 'over') notes.push(words.over(percent, expected, received));
  if (failed) notes.push(words.startAgain);

  const body = product.email_body.trim();
  const heading = [words.heading, '-'.repeat(words.heading.length), ...flags].join('\n');
  const sections = [...(body ? [body] : []), heading, fields, ...notes];
  return { subject, text: `${sections.join('\n\n')}\n` };
}

/** `20.0000` → `20`, `8.25` stays: a rate reads best without trailing zeros. */
function formatRate(rate: string): string {
  return rate.includes('.') ? rate.replace(/\.?0+$/, '') : rate;
}
