/** Message-IDs derived from the payment, so a repeated send of the same e-mail carries the same id. */

/** Who an e-mail about a payment is for. */
export type PaymentMailRecipient = 'customer' | 'merchant';

const idPattern = /^[A-Za-z0-9._-]+$/;
const domainOfSender = /@([^\s<>@]+)>?\s*$/;

/**
 * `<payment-id.recipient@domain>` with the domain of the sender address (`Shop <shop@example.com>`
 * gives `example.com`): retries of one activity send the same id, so receivers can drop duplicates.
 */
export function paymentMessageId(paymentId: string, recipient: PaymentMailRecipient, from: string): string {
  if (!idPattern.test(paymentId)) throw new RangeError(`payment id not usable in a Message-ID: ${paymentId}`);
  const domain = domainOfSender.exec(from)?.[1];
  if (domain === undefined) throw new RangeError(`sender has no domain: ${from}`);
  return `<${paymentId}.${recipient}@${domain}>`;
}
