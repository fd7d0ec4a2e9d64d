/**
 * `emailResend`: sends an undelivered e-mail once more, on the merchant's request. The activity retries
 * while the SMTP server refuses or cannot be reached (1 s doubling to 5 minutes, for about a day); an
 * outcome unknown again is retried once, like every e-mail, then noted on the record.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { EmailResendActivities, EmailResendInput, EmailResendResult } from './shared.ts';

const { resendUndeliveredEmail } = proxyActivities<EmailResendActivities>({
  startToCloseTimeout: '5 minutes',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '5 minutes',
    maximumAttempts: 300,
  },
});

export function emailResend(input: EmailResendInput): Promise<EmailResendResult> {
  return resendUndeliveredEmail(input);
}
