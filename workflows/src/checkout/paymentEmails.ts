/**
 * A payment's e-mails: the customer's receipt (with `send_email`, in the shopper's language) and the
 * merchant's notice, each claimed before it is sent, so a retried step never sends one twice.
 */
import {
  findProductById,
  findResolvedPayment,
  findSessionByExpectedPayment,
  presentResolvedPayment,
} from '@checkout/db';
import { customerReceipt, merchantNotification, type OutgoingMail } from '@checkout/mail';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { sendMailOnce } from '../mailOnce.ts';
import type { CheckoutActivityDeps } from './activityDeps.ts';

/** Builds the e-mail step over its dependencies. */
export function createPaymentEmailSteps(deps: CheckoutActivityDeps) {
  const db = deps.db.kysely;
  return {
    /**
     * Sends the customer's receipt (with `send_email`) and the merchant's notification, each exactly once
     * per payment; `sent` counts the messages this call sent.
     */
    async sendPaymentEmails(input: { resolvedPaymentId: string }): Promise<{ sent: number }> {
      const row = await findResolvedPayment(db, input.resolvedPaymentId);
      if (!row)
        throw ApplicationFailure.nonRetryable('resolved payment not found', 'resolved_payment_not_found');
      const product = await findProductById(db, row.product_id);
      if (!product) throw ApplicationFailure.nonRetryable('product not found', 'product_not_found');
      if (!deps.mailer) {
        Context.current().log.warn('No SMTP server is configured: payment e-mails are not sent', {
          resolvedPaymentId: input.resolvedPaymentId,
        });
        return { sent: 0 };
      }
      const payment = presentResolvedPayment(row, product, deps.secrets);
      const chainName = deps.tokens.chainById(row.chain_id)?.name ?? `chain ${row.chain_id}`;
      // Each message is claimed before it is sent: a retried activity or workflow task that finds it
      // sent sends nothing. The Message-ID stays stable for the one case a claim is taken over (its holder
      // died mid-send), so mail systems can still drop that duplicate.
      const mailer = deps.mailer;
      const sendOnce = (kind: 'customer_receipt' | 'merchant_notice', message: OutgoingMail) =>
        sendMailOnce(deps, mailer, {
          effectKey: `email:${kind}:${row.id}`,
          merchantId: product.merchant_id,
          addressId: product.address_id,
          kind,
          recipient: kind === 'customer_receipt' ? 'customer' : 'merchant',
          resolvedPaymentId: row.id,
          message,
        });
      let sent = 0;
      if (product.send_email && row.user_email) {
        const session = await findSessionByExpectedPayment(db, row.expected_payment_id);
        const mail = customerReceipt({
          payment,
          product: { name: product.name, email_body: product.email_body, tax_rate: product.tax_rate },
          chainName,
          locale: session?.locale,
        });
        sent += await sendOnce('customer_receipt', {
          to: row.user_email,
          ...mail,
          // The shopper's reply reaches the merchant, not the service's sender address.
          replyTo: product.email,
          messageId: `<${row.id}.customer@stable-checkout>`,
        });
      }
      const notice = merchantNotification({ payment, product: { name: product.name }, chainName });
      sent += await sendOnce('merchant_notice', {
        to: product.email,
        ...notice,
        messageId: `<${row.id}.merchant@stable-checkout>`,
      });
      return { sent };
    },
  };
}
