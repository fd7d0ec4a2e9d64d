/** E-mails that may not have arrived (their outcome stayed unknown), as the merchant API lists them. */
import { z } from 'zod';
import { namedObject, Timestamp, Uuid } from './common.ts';

/**
 * An e-mail the SMTP server took twice without a final answer: it may have arrived once, twice or not at
 * all, and is not sent again by itself. `POST /api/v1/undelivered_emails/:id/resend` sends it once more.
 */
export const UndeliveredEmail = namedObject('UndeliveredEmail', {
  id: Uuid,
  kind: z.string().meta({ example: 'merchant_notice' }),
  recipient: z.enum(['customer', 'merchant']),
  resolved_payment_id: Uuid.nullable(),
  refund_id: Uuid.nullable(),
  unmatched_transfer_id: Uuid.nullable(),
  subject: z.string(),
  /** `may_not_have_arrived` until a resend got the server's acceptance (`resent`). */
  status: z.enum(['may_not_have_arrived', 'resend_queued', 'resent']),
  message: z.string().meta({
    example: 'The mail server took this e-mail without confirming it; it may not have arrived.',
  }),
  given_up_at: Timestamp,
  resends: z.number().int().min(0),
  resent_at: Timestamp.nullable(),
});
export type UndeliveredEmail = z.infer<typeof UndeliveredEmail>;

export const UndeliveredEmailResponse = namedObject('UndeliveredEmailResponse', {
  undelivered_email: UndeliveredEmail,
});

export const UndeliveredEmailListResponse = namedObject('UndeliveredEmailList', {
  undelivered_emails: z.array(UndeliveredEmail),
});

/** Filters of GET /api/v1/undelivered_emails: those of one payment or one refund. */
export const UndeliveredEmailQuery = namedObject('UndeliveredEmailQuery', {
  resolved_payment_id: Uuid.optional(),
  refund_id: Uuid.optional(),
});
