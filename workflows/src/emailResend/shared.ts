/** Names and types of the `emailResend` workflow, shared by the workflow, its activity and the API. */

/** Workflow type name, as registered from bundle.workflow.ts. */
export const emailResendWorkflowType = 'emailResend';

/** Id of resend number `resend` of undelivered e-mail `id`: one workflow per resend asked for. */
export const emailResendWorkflowId = (id: string, resend: number) => `email-resend-${id}-${resend}`;

/** Input of the workflow and its activity. */
export interface EmailResendInput {
  /** The undelivered e-mail (`undelivered_emails.id`). */
  id: string;
  /** Which resend this is (1 for the first). */
  resend: number;
}

/** What came of a resend: accepted by the server, or its outcome unknown again (after its one retry). */
export interface EmailResendResult {
  outcome: 'sent' | 'outcome_unknown' | 'no_mailer';
}

export interface EmailResendActivities {
  resendUndeliveredEmail(input: EmailResendInput): Promise<EmailResendResult>;
}
