/** An undelivered e-mail as the merchant API shows it; the message itself stays sealed. */
import type { UndeliveredEmail } from '@checkout/core';
import { resendPending } from '../repositories/undeliveredEmails.ts';
import type { UndeliveredEmailRow } from '../schema.ts';

const messages: Record<UndeliveredEmail['status'], string> = {
  may_not_have_arrived:
    'The mail server took this e-mail twice without confirming it; it may not have arrived. It is not sent again unless resent.',
  resend_queued: 'The e-mail is being sent again.',
  resent: 'The mail server accepted the e-mail when it was sent again.',
};

export function presentUndeliveredEmail(row: UndeliveredEmailRow): UndeliveredEmail {
  const status: UndeliveredEmail['status'] = resendPending(row)
    ? 'resend_queued'
    : row.last_resend_outcome === 'sent'
      ? 'resent'
      : 'may_not_have_arrived';
  return {
    id: row.id,
    kind: row.kind,
    recipient: row.recipient,
    resolved_payment_id: row.resolved_payment_id,
    refund_id: row.refund_id,
    unmatched_transfer_id: row.unmatched_transfer_id,
    subject: row.subject,
    status,
    message: messages[status],
    given_up_at: row.given_up_at.toISOString(),
    resends: row.resends,
    resent_at: row.resent_at?.toISOString() ?? null,
  };
}
