/**
 * Sends one e-mail at most once per claim (activity code), and keeps a record of one given up with its
 * outcome unknown: the SMTP server took it twice without a final answer, so it may not have arrived, and
 * it is not sent again by itself (a later send could be a third copy). The record
 * (`undelivered_emails`) is listed to the merchant with the payment or refund it is about, and resent on
 * request (`resendUndeliveredEmail`, workflows/src/emailResend/activities.ts).
 */
import { type Db, recordUndeliveredEmail, type SecretBox, type UndeliveredEmailInput } from '@checkout/db';
import type { Mailer, OutgoingMail } from '@checkout/mail';
import { performOnce } from './effects.ts';

/** How long one e-mail's claim is held: above the SMTP client's own timeouts. */
export const mailLeaseMs = 3 * 60_000;

/** One e-mail to send under its claim `effectKey`, with what it is about for the record. */
export type MailToSend = Omit<UndeliveredEmailInput, 'message'> & { message: OutgoingMail };

/** Sends `mail` once (claimed); 1 when this call sent it, 0 when it was sent before or given up. */
export async function sendMailOnce(
  deps: { db: Db; secrets: SecretBox },
  mailer: Mailer,
  mail: MailToSend,
): Promise<number> {
  const made = await performOnce(deps.db, mail.effectKey, mailLeaseMs, async () => {
    await mailer.send(mail.message);
    return { sentAt: new Date().toISOString() };
  });
  if ('outcomeUnknown' in made) {
    // Also when a retried activity finds the e-mail given up: the record is written once.
    const { signal: _signal, ...message } = mail.message;
    await recordUndeliveredEmail(deps.db.kysely, deps.secrets, { ...mail, message });
    return 0;
  }
  return made.performed ? 1 : 0;
}
