/** The activity of `emailResend`: the kept message, sent once more under a claim of its own. */
import { noteEmailResent, openUndeliveredEmail } from '@checkout/db';
import { ApplicationFailure, log } from '@temporalio/activity';
import { performOnce } from '../effects.ts';
import { mailLeaseMs } from '../mailOnce.ts';
import type { WorkerResources } from '../resources.ts';
import type { EmailResendActivities } from './shared.ts';

/** What the resend needs. */
export type EmailResendActivityDeps = Pick<WorkerResources, 'db' | 'secrets' | 'mailer'>;

export function createEmailResendActivities(deps: EmailResendActivityDeps): EmailResendActivities {
  return {
    /**
     * Sends the very message again (same Message-ID, so a mail system that got the first copy may drop
     * this one), claimed as `email:resend:<id>:<n>`, and notes the resend on the record.
     */
    async resendUndeliveredEmail({ id, resend }) {
      const kept = await openUndeliveredEmail(deps.db.kysely, deps.secrets, id);
      if (!kept)
        throw ApplicationFailure.nonRetryable('undelivered e-mail not found', 'undelivered_email_not_found');
      const mailer = deps.mailer;
      if (!mailer) {
        log.warn('No SMTP server is configured: the e-mail is not resent', { id });
        return { outcome: 'no_mailer' };
      }
      const made = await performOnce(deps.db, `email:resend:${id}:${resend}`, mailLeaseMs, async () => {
        await mailer.send(kept.message);
        return { sentAt: new Date().toISOString() };
      });
      const outcome = 'outcomeUnknown' in made ? 'outcome_unknown' : 'sent';
      await noteEmailResent(deps.db.kysely, id, resend, outcome);
      return { outcome };
    },
  };
}
