/**
 * E-mails given up with their outcome unknown, and their resends on request. The message is kept sealed
 * (it holds the recipient's address), so a resend sends the very same message, Message-ID included.
 */
import { randomUUID } from 'node:crypto';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database, UndeliveredEmailRow } from '../schema.ts';
import type { SecretBox } from '../secretBox.ts';
import { storedTokenNetwork, type WalletScope } from './walletScope.ts';

/** A test key's condition: the e-mail is about a payment, refund or transfer of a test network. */
const aboutTestNetwork = (eb: ExpressionBuilder<Database, 'undelivered_emails'>) =>
  eb.or([
    eb.exists(
      eb
        .selectFrom('resolved_payments')
        .select('resolved_payments.id')
        .whereRef('resolved_payments.id', '=', 'undelivered_emails.resolved_payment_id')
        .where('resolved_payments.is_test', '=', true),
    ),
    eb.exists(
      eb
        .selectFrom('refunds')
        .select('refunds.id')
        .whereRef('refunds.id', '=', 'undelivered_emails.refund_id')
        .where(storedTokenNetwork('refunds.token'), '=', 'testnet'),
    ),
    eb.exists(
      eb
        .selectFrom('unmatched_transfers')
        .select('unmatched_transfers.id')
        .whereRef('unmatched_transfers.id', '=', 'undelivered_emails.unmatched_transfer_id')
        .where(storedTokenNetwork('unmatched_transfers.token'), '=', 'testnet'),
    ),
  ]);

/** The message a resend sends again. */
export interface KeptMessage {
  to: string | readonly string[];
  subject: string;
  text: string;
  replyTo?: string;
  headers?: Readonly<Record<string, string>>;
  messageId?: string;
}

/** What an e-mail was about and whose it is. */
export interface UndeliveredEmailInput {
  effectKey: string;
  merchantId: string;
  addressId: string;
  kind: string;
  recipient: 'customer' | 'merchant';
  resolvedPaymentId?: string;
  refundId?: string;
  unmatchedTransferId?: string;
  message: KeptMessage;
}

/** Records an e-mail as given up (once per e-mail: a retried activity records nothing more). */
export async function recordUndeliveredEmail(
  db: Kysely<Database>,
  secrets: SecretBox,
  input: UndeliveredEmailInput,
): Promise<void> {
  await db
    .insertInto('undelivered_emails')
    .values({
      id: randomUUID(),
      effect_key: input.effectKey,
      merchant_id: input.merchantId,
      address_id: input.addressId,
      kind: input.kind,
      recipient: input.recipient,
      resolved_payment_id: input.resolvedPaymentId ?? null,
      refund_id: input.refundId ?? null,
      unmatched_transfer_id: input.unmatchedTransferId ?? null,
      subject: input.message.subject,
      message_ciphertext: secrets.seal(JSON.stringify(input.message)),
      given_up_at: new Date(),
    })
    .onConflict((oc) => oc.column('effect_key').doNothing())
    .execute();
}

/** The wallet's e-mails that may not have arrived, newest first; of one payment or refund when named. */
export function listUndeliveredEmails(
  db: Kysely<Database>,
  scope: WalletScope,
  filter: { resolvedPaymentId?: string | undefined; refundId?: string | undefined },
): Promise<UndeliveredEmailRow[]> {
  let query = db
    .selectFrom('undelivered_emails')
    .selectAll()
    .where('merchant_id', '=', scope.merchantId)
    .where('address_id', '=', scope.addressId)
    .$if(Boolean(scope.testOnly), (q) => q.where(aboutTestNetwork));
  if (filter.resolvedPaymentId) query = query.where('resolved_payment_id', '=', filter.resolvedPaymentId);
  if (filter.refundId) query = query.where('refund_id', '=', filter.refundId);
  return query.orderBy('given_up_at', 'desc').orderBy('id').limit(500).execute();
}

/** The wallet's undelivered e-mail `id`. */
export function findUndeliveredEmail(
  db: Kysely<Database>,
  scope: WalletScope,
  id: string,
): Promise<UndeliveredEmailRow | undefined> {
  return db
    .selectFrom('undelivered_emails')
    .selectAll()
    .where('id', '=', id)
    .where('merchant_id', '=', scope.merchantId)
    .where('address_id', '=', scope.addressId)
    .$if(Boolean(scope.testOnly), (q) => q.where(aboutTestNetwork))
    .executeTakeFirst();
}

/** The kept message of undelivered e-mail `id`, opened; undefined when there is no such e-mail. */
export async function openUndeliveredEmail(
  db: Kysely<Database>,
  secrets: SecretBox,
  id: string,
): Promise<{ row: UndeliveredEmailRow; message: KeptMessage } | undefined> {
  const row = await db.selectFrom('undelivered_emails').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  return { row, message: JSON.parse(secrets.open(row.message_ciphertext)) as KeptMessage };
}

/** Whether a resend was asked for and has not been made yet. */
export const resendPending = (row: UndeliveredEmailRow): boolean =>
  row.resend_requested_at !== null &&
  (row.resent_at === null || row.resend_requested_at.getTime() > row.resent_at.getTime());

/**
 * Asks for resend number `resends + 1` of the e-mail; undefined when one is already pending (the caller
 * answers 409). The returned row names the resend (`resends + 1`).
 */
export async function requestEmailResend(
  db: Kysely<Database>,
  row: UndeliveredEmailRow,
): Promise<UndeliveredEmailRow | undefined> {
  return db
    .updateTable('undelivered_emails')
    .set({ resend_requested_at: new Date() })
    .where('id', '=', row.id)
    .where('resends', '=', row.resends)
    .where((eb) =>
      eb.or([eb('resend_requested_at', 'is', null), eb('resent_at', '>=', eb.ref('resend_requested_at'))]),
    )
    .returningAll()
    .executeTakeFirst();
}

/** Notes resend number `resend` made, with what came of it (once: a repeated note changes nothing). */
export async function noteEmailResent(
  db: Kysely<Database>,
  id: string,
  resend: number,
  outcome: 'sent' | 'outcome_unknown',
): Promise<void> {
  await db
    .updateTable('undelivered_emails')
    .set({ resends: resend, resent_at: new Date(), last_resend_outcome: outcome })
    .where('id', '=', id)
    .where('resends', '<', resend)
    .execute();
}
