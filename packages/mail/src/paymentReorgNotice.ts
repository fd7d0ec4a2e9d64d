/** The plain-text e-mail a merchant gets when a chain reorganisation reversed or moved one of their payments. */
import type { ResolvedPayment } from '@checkout/core';
import type { MailContent } from './customerReceipt.ts';
import { formatFields } from './formatFields.ts';
import { oneLine } from './oneLine.ts';

/** Subject and text telling the merchant what became of the payment. */
export function paymentReorgNotice(input: {
  payment: ResolvedPayment;
  productName: string;
  chainName: string;
  outcome: 'reversed' | 'moved';
  blockNumber: string;
}): MailContent {
  const { payment } = input;
  const name = oneLine(input.productName);
  const reversed = input.outcome === 'reversed';
  const what = reversed ? 'Payment reversed' : 'Payment moved to another block (still paid)';
  const subject = `${payment.is_test ? '[TEST] ' : ''}${what}: ${name} — ${payment.dollar_amount} USD`;
  const flag = reversed
    ? '*** reversed: a reorganisation of the chain took this transaction off it. The money did not arrive: do not fulfil the order (or recover it if you did). ***'
    : `*** The chain reorganised: the transaction is now in block ${input.blockNumber}. The payment still stands; nothing to do. ***`;
  const facts = formatFields([
    ['Product', `${name} (slug ${oneLine(payment.slug)})`],
    ['Payment id', payment.id],
    ['Expected payment id', payment.expected_payment_id],
    ['Transaction', payment.payment.tx_id],
    ['Chain', oneLine(input.chainName)],
    [reversed ? 'Block it was in' : 'Block it is in now', input.blockNumber],
    [
      'Received',
      `${payment.payment.received_token_amount} ${oneLine(payment.payment.received_token.symbol)}`,
    ],
    ['Sender', payment.payment.sender_address],
    ['Exception status', payment.payment.exception_status ?? 'none'],
  ]);
  return { subject, text: `${flag}\n\n${facts}\n` };
}
