/**
 * A refund's e-mails: the customer's of each status it reaches (and the reminder while it waits for an
 * address), in their receipt language, and the merchant's when it is theirs to pay, expired or confirmed.
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
import { performOnce } from '../effects.ts';
import type { WorkerResources } from '../resources.ts';

/** What the refund e-mails need. */
export type RefundEmailDeps = Pick<WorkerResources, 'db' | 'secrets' | 'tokens' | 'mailer' | 'publicBaseUrl'>;

/** How long one e-mail's claim is held: above the SMTP client's own timeouts. */
const mailLeaseMs = 3 * 60_000;

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
    const { performed } = await performOnce(
      deps.db,
      `email:refund:${row.id}:${kind}:customer`,
      mailLeaseMs,
      async () => {
        await mailer.send({
          to,
          ...mail,
          ...(product ? { replyTo: product.email } : {}),
          messageId: `<${row.id}.${kind}.customer.refund@stable-checkout>`,
        });
        return { sentAt: new Date().toISOString() };
      },
    );
    return performed ? 1 : 0;
  }

  /** Sends the merchant's e-mail of `kind` (claimed) to the product's address; none without a product. */
  async function toMerchant(row: RefundRow, kind: MerchantRefundNoticeKind, mailer: Mailer): Promise<number> {
    const product = row.product_id ? await findProductById(db, row.product_id) : undefined;
    if (!product) return 0;
    const mail = merchantRefundNotice({
      kind,
      refund: presentRefund(row, deps),
      chainName: chainName(row.chain_id),
      productName: product.name,
    });
    const { performed } = await performOnce(
      deps.db,
      `email:refund:${row.id}:${kind}:merchant`,
      mailLeaseMs,
      async () => {
        await mailer.send({
          to: product.email,
          ...mail,
          messageId: `<${row.id}.${kind}.merchant.refund@stable-checkout>`,
        });
        return { sentAt: new Date().toISOString() };
      },
    );
    return performed ? 1 : 0;
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
