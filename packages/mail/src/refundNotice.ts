/**
 * The plain-text e-mails of a refund: the customer's, one per status it reaches (and a reminder while it
 * waits for an address), in the customer's receipt language; and the merchant's, when it is theirs to pay,
 * when it expired unclaimed and when it is confirmed — and when their wallet sent it another amount (a part
 * payment, with what is still due, or more than the refund).
 */
import type { Refund } from '@checkout/core';
import type { MailContent } from './customerReceipt.ts';
import { formatFields } from './formatFields.ts';
import { formatTimestamp } from './formatTimestamp.ts';
import { formatDecimalIn } from './localeAmount.ts';
import { oneLine } from './oneLine.ts';
import { receiptLocaleOf } from './receiptLanguage.ts';
import { type CustomerRefundNoticeKind, refundWords } from './refundWords.ts';

export type { CustomerRefundNoticeKind };

/** The statuses a merchant is e-mailed of, and the transfers of another amount (`part_paid`, `overpaid`). */
export type MerchantRefundNoticeKind = 'ready_to_pay' | 'expired' | 'confirmed' | 'part_paid' | 'overpaid';

/** What both e-mails show of a refund besides its wire shape. */
interface RefundNoticeContext {
  refund: Refund;
  /** Display name of the chain, e.g. `BNB Smart Chain Testnet`. */
  chainName: string;
  /** The product it refunds a payment of, when known. */
  productName: string | null;
}

/** Subject and text of the customer's e-mail of `kind`, in the language of `locale` (en, es, pt). */
export function customerRefundNotice(
  input: RefundNoticeContext & { kind: CustomerRefundNoticeKind; locale: string | null | undefined },
): MailContent {
  const { refund, kind } = input;
  const { language, locale } = receiptLocaleOf(input.locale);
  const words = refundWords[language];
  const isTest = refund.token.network === 'testnet';
  const symbol = oneLine(refund.token.symbol);
  const amount = `${formatDecimalIn(refund.amount, locale)} ${symbol}`;
  const what = words.forWhat(input.productName === null ? null : oneLine(input.productName));
  const until = formatTimestamp(refund.claim_expires_at);
  const subject = `${isTest ? words.testSubject : ''}${words.subjects[kind](amount, what)}`;
  const asking = kind === 'awaiting_address' || kind === 'reminder';
  const intro = kind === 'reminder' ? words.intro.reminder(until) : words.intro[kind];
  const facts = formatFields([
    [words.labels.amount, amount],
    [words.labels.chain, oneLine(input.chainName)],
    [words.labels.reason, oneLine(refund.reason)],
    [words.labels.cancelReason, refund.cancel_reason === null ? undefined : oneLine(refund.cancel_reason)],
    [words.labels.address, asking ? undefined : (refund.refund_address ?? undefined)],
    [words.labels.transaction, refund.tx_hash ?? undefined],
    [words.labels.claimBy, asking ? until : undefined],
    [words.labels.refundId, refund.id],
  ]);
  const sections = [
    ...(isTest ? [words.test] : []),
    intro,
    ...(asking && refund.claim_url
      ? [
          `${words.claimHere(until)}\n${refund.claim_url}`,
          words.exchangeWarning(symbol, oneLine(input.chainName)),
        ]
      : []),
    facts,
  ];
  // The shop's name before the service's in the sender: the customer knows whom the refund is from.
  const fromName = input.productName === null ? {} : { fromName: oneLine(input.productName) };
  return { subject, text: `${sections.join('\n\n')}\n`, ...fromName };
}

const merchantHeadline: Record<MerchantRefundNoticeKind, string> = {
  ready_to_pay:
    'The refund has its address: pay it from your receiving wallet, exactly as below (the hosted page does it with your wallet or a QR code). The service recognises the transfer on the chain.',
  expired:
    'The customer gave no address before the claim window ended: the refund expired and nothing is owed.',
  confirmed: 'The refund transfer is confirmed on the chain. Nothing more to do.',
  part_paid:
    'Your wallet sent the refund address less than the refund: it is recorded as a part payment. Send what is still due, exactly as below, to complete it.',
  overpaid:
    'Your wallet sent the refund address more than the refund: the refund is paid, and the amount above it is the customer’s now. Ask them for it back if it was a mistake.',
};

const merchantSubject: Record<MerchantRefundNoticeKind, string> = {
  ready_to_pay: 'Refund ready to pay',
  expired: 'Refund expired unclaimed',
  confirmed: 'Refund confirmed',
  part_paid: 'Refund paid in part',
  overpaid: 'Refund overpaid',
};

/** Subject and text of the merchant's e-mail of `kind` (English, like their other notices). */
export function merchantRefundNotice(
  input: RefundNoticeContext & { kind: MerchantRefundNoticeKind },
): MailContent {
  const { refund, kind } = input;
  const symbol = oneLine(refund.token.symbol);
  const isTest = refund.token.network === 'testnet';
  const subject = `${isTest ? '[TEST] ' : ''}${merchantSubject[kind]}: ${refund.amount} ${symbol}${
    input.productName ? ` · ${oneLine(input.productName)}` : ''
  }`;
  const facts = formatFields([
    [
      'Amount',
      `${refund.amount} ${symbol} (${refund.amount_base_units} base units, token ${refund.token.address})`,
    ],
    ['Chain', `${oneLine(input.chainName)} (${refund.chain_id})`],
    ['Reason', oneLine(refund.reason)],
    ['From (your wallet)', refund.from_address],
    ['To', refund.refund_address ?? undefined],
    ['Address given by', refund.address_source ?? undefined],
    ['Paid so far', refund.paid_amount === '0' ? undefined : `${refund.paid_amount} ${symbol}`],
    ['Still due', kind === 'part_paid' ? `${refund.amount_due} ${symbol}` : undefined],
    [
      'Sent above the refund',
      refund.overpaid_amount === null ? undefined : `${refund.overpaid_amount} ${symbol}`,
    ],
    ['Transaction', refund.tx_hash ?? undefined],
    ['Product', input.productName === null ? undefined : oneLine(input.productName)],
    ['Resolved payment', refund.resolved_payment_id ?? undefined],
    ['Unmatched transfer', refund.unmatched_transfer_id ?? undefined],
    ['Refund id', refund.id],
    ['Requested', formatTimestamp(refund.created_at)],
  ]);
  const pay =
    kind === 'ready_to_pay' || kind === 'part_paid'
      ? [
          ...(refund.pay_url ? [`Pay it here: ${refund.pay_url}`] : []),
          ...(refund.payment_request ? [`Payment request (EIP-681): ${refund.payment_request.uri}`] : []),
        ]
      : [];
  const sections = [
    `*** ${merchantHeadline[kind]} ***`,
    ...pay,
    facts,
    `See GET /api/v1/refunds/${refund.id}.`,
  ];
  return { subject, text: `${sections.join('\n\n')}\n` };
}
