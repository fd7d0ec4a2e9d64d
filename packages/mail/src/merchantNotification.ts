/** The plain-text notification a merchant gets at the product's `email` for every resolved payment (spec §6.3). */
import type { PaymentExceptionStatus, PaymentToken, ResolvedPayment } from '@checkout/core';
import type { MailContent } from './customerReceipt.ts';
import { formatFields } from './formatFields.ts';
import { formatTimestamp } from './formatTimestamp.ts';
import { formatUsd } from './formatUsd.ts';
import { oneLine } from './oneLine.ts';
import { paymentDeviation } from './paymentDeviation.ts';

/** The merchant's instruction for a test payment, worded as the spec's rule for `is_test`; only merchants read it. */
const testPaymentFlag = 'TEST PAYMENT — do not fulfil';

/**
 * The rule that applied, named so that it is not taken for the 5 % within which a transfer no checkout took is
 * named near an order (CHECKOUT_MATCH_TOLERANCE_PERCENT).
 */
const amountRule =
  '1 % of the price, the amount_difference rule (docs/api-decisions.md, "Resolved payments")';

/**
 * The flag line of each `exception_status` (core's paymentException.ts), keyed by the value and opened with it, so
 * the notice names the exception in the words the webhook uses. `percent` is the unsigned amount difference;
 * `beyondTolerance` says whether it exceeds the spec's 1 %.
 */
const exceptionFlags: Readonly<
  Record<PaymentExceptionStatus, (percent: string, beyondTolerance: boolean) => string>
> = {
  reversed: () =>
    'a reorganisation of the chain took the transaction off it: the money did not arrive. Do not fulfil the ' +
    'order (or recover it if you did).',
  refunded: () => 'all that the payment received was refunded to the customer.',
  partially_refunded: () => 'part of what the payment received was refunded to the customer.',
  paid_partially: (percent, beyondTolerance) =>
    `received ${percent} % less than expected. ${
      beyondTolerance
        ? 'You may ask the customer to send the difference before fulfilment.'
        : `That is within ${amountRule}: the order counts as paid.`
    }`,
  paid_over: (percent, beyondTolerance) =>
    `received ${percent} % more than expected. ${
      beyondTolerance
        ? 'You may arrange a partial refund.'
        : `That is within ${amountRule}: nothing is owed back.`
    }`,
  paid_late: () =>
    "the payment arrived after the checkout's time had run out. Check that you can still fulfil the order " +
    '(price, stock) before you do.',
  paid_twice: () =>
    'a second transfer arrived for an order that was already paid. Do not fulfil the order again; ' +
    'you may refund this transfer to its sender.',
};

/** Input of merchantNotification. */
export interface MerchantNotificationInput {
  payment: ResolvedPayment;
  product: { name: string };
  /** Display name of the chain, e.g. `Ethereum`. */
  chainName: string;
}

/** Subject and text telling the merchant every key fact of a resolved payment, successful or failed. */
export function merchantNotification(input: MerchantNotificationInput): MailContent {
  const { payment: resolved, chainName } = input;
  const { payment } = resolved;
  const name = oneLine(input.product.name);
  const usd = formatUsd(resolved.dollar_amount);
  const failed = payment.tx_failure;
  const deviation = paymentDeviation(payment.amount_difference);
  const exception = failed ? null : payment.exception_status;
  const status = failed
    ? 'Payment failed'
    : deviation === 'under'
      ? 'Underpayment'
      : deviation === 'over'
        ? 'Overpayment'
        : 'Payment received';
  const named = exception ? `${status} (${exception})` : status;
  const subject = `${resolved.is_test ? '[TEST] ' : ''}${named}: ${name} — ${usd} USD`;

  const percent = payment.amount_difference.replace(/^[+-]/, '');
  const flags: string[] = [];
  if (resolved.is_test)
    flags.push(`*** ${testPaymentFlag}. is_test is true: this was not a real purchase. ***`);
  if (failed) flags.push('*** FAILED TRANSACTION: no funds were received. Do not fulfil. ***');
  if (exception)
    flags.push(`*** ${exception}: ${exceptionFlags[exception](percent, deviation !== undefined)} ***`);

  const facts = formatFields([
    ['Product', `${name} (slug ${oneLine(resolved.slug)})`],
    ['Status', failed ? 'FAILED' : payment.tx_success ? 'succeeded' : 'unknown'],
    ['Exception status', exception ?? 'none'],
    ['Test payment', resolved.is_test ? 'YES' : 'no'],
    ['USD amount', `${usd} USD`],
    ['Expected', `${payment.expected_token_amount} ${describeToken(payment.expected_token)}`],
    ['Received', `${payment.received_token_amount} ${describeToken(payment.received_token)}`],
    ['Amount difference', `${payment.amount_difference} %`],
    ['Swapped', payment.swapped ? 'yes' : 'no'],
    ['Chain', oneLine(chainName)],
    ['Sender', payment.sender_address],
    ['Receiving address', payment.receiving_address],
    ['Transaction', payment.tx_id],
    ['Payment id', resolved.id],
    ['Expected payment id', resolved.expected_payment_id],
    ['Date', formatTimestamp(payment.created_at)],
    ['Metadata', resolved.metadata === null ? undefined : JSON.stringify(resolved.metadata)],
  ]);

  // Custom field names and values come from the shopper: kept on one line each.
  const customer = formatFields([
    ['E-mail', oneLine(resolved.user.email) || '(none)'],
    ...Object.entries(resolved.user.custom_fields).map(
      ([field, value]) => [oneLine(field), oneLine(value)] as const,
    ),
  ]);

  const sections = [
    ...(flags.length > 0 ? [flags.join('\n')] : []),
    facts,
    `Customer\n--------\n${customer}`,
    'Use the payment id to recognise a repeated notification of the same payment.',
  ];
  return { subject, text: `${sections.join('\n\n')}\n` };
}

function describeToken(token: PaymentToken): string {
  return `${oneLine(token.symbol)} (${oneLine(token.blockchain)} ${oneLine(token.network)}, ${token.address})`;
}
