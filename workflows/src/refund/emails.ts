/**
 * A refund's e-mails: the customer's of each status it reaches (and the reminder while it waits for an
 * address), in their receipt language, and the merchant's when it is theirs to pay, expired or confirmed,
 * and when their wallet paid it with another amount (once per sum paid).
 * Each is claimed before it is sent (`email:refund:<id>:<status>:<customer|merchant>`), so a retried
 * activity or workflow task never sends one twice.
 */
import { findProductById, findRefundById, presentRefund, type RefundRow } from '@checkout/db';
import {
  type CustomerRefundNoticeKind,
  customerRefundNotice,
  type Mailer,
  type MerchantRefundNoticeKind,
  merchantRefundNotice,
} from '@checkout/mail';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { sendMailOnce } from '../mailOnce.ts';
import type { WorkerResources } from '../resources.ts';

/** What the refund e-mails need. */
export type RefundEmailDeps = Pick<WorkerResources, 'db' | 'secrets' | 'tokens' | 'mailer' | 'publicBaseUrl'>;

/** The statuses the customer is told of (every one), and those the merchant is told of. */
const merchantKinds: readonly string[] = [
  'ready_to_pay',
  'expired',
  'confirmed',
] satisfies MerchantRefundNoticeKind[];

/** Builds the refund e-mail steps over their dependencies. */
export function createRefundEmailSteps(deps: RefundEmailDeps) {
  const db = deps.db.kysely;

  /** The row, or a final failure (a refund is never deleted). */
  const rowOf = async (refundId: string): Promise<RefundRow> => {
    const row = await findRefundById(db, refundId);
    if (!row) throw ApplicationFailure.nonRetryable('refund not found', 'refund_not_found');
    return row;
  };

  /** Sends one customer e-mail of `kind` (claimed), when the customer's address is known. */
  async function toCustomer(row: RefundRow, kind: CustomerRefundNoticeKind, mailer: Mailer): Promise<number> {
    if (!row.email_ciphertext) return 0;
    const to = deps.secrets.open(row.email_ciphertext);
    const product = row.product_id ? await findProductById(db, row.product_id) : undefined;
    const mail = customerRefundNotice({
      kind,
      refund: presentRefund(row, deps),
      chainName: chainName(row.chain_id),
      productName: product?.name ?? null,
      locale: row.locale,
    });
    return sendMailOnce(deps, mailer, {
      ...about(row, kind, 'customer'),
      message: {
        to,
        ...mail,
        ...(product ? { replyTo: product.email } : {}),
        messageId: `<${row.id}.${kind}.customer.refund@stable-checkout>`,
      },
    });
  }

  /**
   * Sends the merchant's e-mail of `kind` (claimed; `instance` tells apart several of one kind) to the
   * product's address; none without a product.
   */
  async function toMerchant(
    row: RefundRow,
    kind: MerchantRefundNoticeKind,
    mailer: Mailer,
    instance = '',
  ): Promise<number> {
    const product = row.product_id ? await findProductById(db, row.product_id) : undefined;
    if (!product) return 0;
    const mail = merchantRefundNotice({
      kind,
      refund: presentRefund(row, deps),
      chainName: chainName(row.chain_id),
      productName: product.name,
    });
    const claim = about(row, kind, 'merchant');
    return sendMailOnce(deps, mailer, {
      ...claim,
      effectKey: instance ? `${claim.effectKey}:${instance}` : claim.effectKey,
      message: {
        to: product.email,
        ...mail,
        messageId: `<${row.id}.${kind}${instance ? `.${instance}` : ''}.merchant.refund@stable-checkout>`,
      },
    });
  }

  /** The claim of the refund's e-mail of `kind` to `recipient`, and whose it is for the record. */
  function about(row: RefundRow, kind: string, recipient: 'customer' | 'merchant') {
    return {
      effectKey: `email:refund:${row.id}:${kind}:${recipient}`,
      merchantId: row.merchant_id,
      addressId: row.address_id,
      kind: `refund_${kind}`,
      recipient,
      refundId: row.id,
      ...(row.resolved_payment_id ? { resolvedPaymentId: row.resolved_payment_id } : {}),
    };
  }

  function chainName(chainId: number): string {
    return deps.tokens.chainById(chainId)?.name ?? `chain ${chainId}`;
  }

  function mailerOr(input: object, what: string): Mailer | undefined {
    if (!deps.mailer) {
      Context.current().log.warn(`No SMTP server is configured: ${what} is not e-mailed`, { ...input });
    }
    return deps.mailer;
  }

  return {
    /**
     * Sends the e-mails of `status` (the customer's, and the merchant's of ready_to_pay, expired and
     * confirmed), each once; nothing when the refund has left that status (the workflow announces the
     * one it is in). How many this call sent.
     */
    async sendRefundEmails(input: { refundId: string; status: string }): Promise<{ sent: number }> {
      const row = await rowOf(input.refundId);
      if (row.status !== input.status) return { sent: 0 };
      const mailer = mailerOr(input, `the refund's ${input.status}`);
      if (!mailer) return { sent: 0 };
      let sent = await toCustomer(row, row.status, mailer);
      if (merchantKinds.includes(row.status)) {
        sent += await toMerchant(row, row.status as MerchantRefundNoticeKind, mailer);
      }
      return { sent };
    },

    /**
     * Tells the merchant that their wallet sent the refund address another amount, once per sum paid
     * (`paidAmount`, base units): a part payment with what is still due, or more than the refund. Nothing
     * once the sum has moved on (the workflow tells the newer one) or when it is exactly the amount.
     */
    async sendRefundPaidNotice(input: { refundId: string; paidAmount: string }): Promise<{ sent: number }> {
      const row = await rowOf(input.refundId);
      const paid = BigInt(row.paid_amount);
      if (row.paid_amount !== input.paidAmount || paid === BigInt(row.amount)) return { sent: 0 };
      const mailer = mailerOr(input, 'the refund paid with another amount');
      if (!mailer) return { sent: 0 };
      const kind = paid < BigInt(row.amount) ? 'part_paid' : 'overpaid';
      return { sent: await toMerchant(row, kind, mailer, row.paid_amount) };
    },

    /** Reminds the customer to claim the refund, once, while it still waits for an address. */
    async sendRefundReminder(input: { refundId: string }): Promise<{ sent: number }> {
      const row = await rowOf(input.refundId);
      if (row.status !== 'awaiting_address') return { sent: 0 };
      const mailer = mailerOr(input, "the refund's reminder");
      if (!mailer) return { sent: 0 };
      return { sent: await toCustomer(row, 'reminder', mailer) };
    },
  };
}
