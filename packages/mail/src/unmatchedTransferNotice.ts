/** The plain-text e-mail a merchant gets when a transfer into their wallet fits no order. */
import type { UnmatchedTransfer } from '@checkout/core';
import type { MailContent } from './customerReceipt.ts';
import { formatFields } from './formatFields.ts';
import { formatTimestamp } from './formatTimestamp.ts';
import { oneLine } from './oneLine.ts';

/** What each kind of unmatched transfer means, and what the merchant can do. */
const kindWords: Record<UnmatchedTransfer['kind'], { title: string; advice: string }> = {
  duplicate: {
    title: 'Paid twice',
    advice: 'A second payment for an order that was already paid. Refund it, or attach it to another order.',
  },
  closed_attempt: {
    title: 'Payment to an abandoned checkout',
    advice: 'The shopper had left this checkout. Attach it to the order it was meant for, or refund it.',
  },
  wrong_amount: {
    title: 'Payment of another amount',
    advice:
      'It is near an order but not its amount, so it was not booked. Attach it to that order (it then resolves as paid under or over), or refund it.',
  },
  unexpected: {
    title: 'Unexpected payment',
    advice: 'It fits none of your open orders. Attach it, refund it, or dismiss it with a note.',
  },
};

/** Subject and text telling the merchant of an unmatched transfer and what can be done with it. */
export function unmatchedTransferNotice(input: {
  transfer: UnmatchedTransfer;
  /** Display name of the chain, e.g. `Ethereum`. */
  chainName: string;
  productName: string | null;
}): MailContent {
  const { transfer } = input;
  const words = kindWords[transfer.kind];
  const token = oneLine(transfer.token.symbol);
  const subject = `${transfer.token.network === 'testnet' ? '[TEST] ' : ''}Unmatched transfer (${transfer.kind}): ${transfer.amount} ${token} from ${transfer.sender_address}`;
  const facts = formatFields([
    ['What', words.title],
    [
      'Amount',
      `${transfer.amount} ${token} (${oneLine(transfer.token.blockchain)} ${oneLine(transfer.token.network)}, ${transfer.token.address})`,
    ],
    ['Sender', transfer.sender_address],
    ['Receiving address', transfer.receiving_address],
    ['Chain', oneLine(input.chainName)],
    ['Transaction', transfer.tx_hash],
    ['Product', input.productName === null ? undefined : oneLine(input.productName)],
    ['Duplicate of payment', transfer.resolved_payment_id ?? undefined],
    ['Unmatched transfer id', transfer.id],
    ['Date', formatTimestamp(transfer.created_at)],
  ]);
  const near = transfer.near_sessions.map(
    (s) =>
      `- checkout ${s.session_id} (expected payment ${s.expected_payment_id}): ${s.expected_token_amount} ${token}, ${s.status}${s.sender_address ? `, payer ${s.sender_address}` : ''}`,
  );
  const sections = [
    `*** ${transfer.kind}: ${words.advice} ***`,
    facts,
    ...(near.length > 0 ? [`Checkouts it arrived near\n-------------------------\n${near.join('\n')}`] : []),
    'See GET /api/v1/unmatched_transfers/<id>; attach, refund or dismiss it there. Nothing was booked to an order.',
  ];
  return { subject, text: `${sections.join('\n\n')}\n` };
}

/**
 * Subject and text telling the merchant of several unmatched transfers at once (a batch: at most one e-mail
 * a recipient per interval), each with its kind, amount, sender, transaction, the checkouts it arrived near
 * and what can be done.
 */
export function unmatchedTransfersNotice(input: {
  transfers: ReadonlyArray<{ transfer: UnmatchedTransfer; chainName: string }>;
  productName: string | null;
}): MailContent {
  const { transfers } = input;
  const test = transfers.every((t) => t.transfer.token.network === 'testnet');
  const amounts = transfers.map((t) => `${t.transfer.amount} ${oneLine(t.transfer.token.symbol)}`);
  const shown = amounts.slice(0, 3).join(', ') + (amounts.length > 3 ? ', …' : '');
  const subject = `${test ? '[TEST] ' : ''}${transfers.length} unmatched transfers: ${shown}`;
  const items = transfers.map(({ transfer, chainName }, index) => {
    const token = oneLine(transfer.token.symbol);
    const near = transfer.near_sessions.map(
      (s) => `    near checkout ${s.session_id}: ${s.expected_token_amount} ${token}, ${s.status}`,
    );
    return [
      `${index + 1}. ${kindWords[transfer.kind].title} (${transfer.kind}): ${transfer.amount} ${token} from ${transfer.sender_address}`,
      `    ${oneLine(chainName)}, transaction ${transfer.tx_hash}, ${formatTimestamp(transfer.created_at)}`,
      ...(transfer.resolved_payment_id ? [`    duplicate of payment ${transfer.resolved_payment_id}`] : []),
      ...near,
      `    unmatched transfer ${transfer.id}`,
    ].join('\n');
  });
  const sections = [
    `*** ${transfers.length} transfers into your wallet fit no order. Nothing was booked to an order. ***`,
    ...(input.productName === null ? [] : [`Product: ${oneLine(input.productName)}`]),
    items.join('\n\n'),
    Object.values(kindWords)
      .map((w) => `- ${w.title}: ${w.advice}`)
      .join('\n'),
    'See GET /api/v1/unmatched_transfers; attach, refund or dismiss each there.',
  ];
  return { subject, text: `${sections.join('\n\n')}\n` };
}
