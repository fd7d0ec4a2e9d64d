/** Where e-mails go: an SMTP server, or a development inbox directory. */
import { resolve } from 'node:path';
import { z } from 'zod';
import { optional } from './shared.ts';

export const mailEnv = {
  SMTP_URL: optional(z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')),
  MAIL_FROM: z.string().default('Stable Checkout <payments@localhost>'),
  SMTP_UNKNOWN_OUTCOME_RETRY_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  DEV_INBOX_DIR: optional(z.string()),
};
type MailEnv = z.infer<z.ZodObject<typeof mailEnv>> & { NODE_ENV: string };

export interface MailConfig {
  smtpUrl: string | undefined;
  from: string;
  devInboxDir: string | undefined;
  /** Wait before the one retry of a send whose outcome is unknown. */
  unknownOutcomeRetryMs: number;
}

export function mailConfig(c: MailEnv): MailConfig {
  return {
    smtpUrl: c.SMTP_URL,
    from: c.MAIL_FROM,
    unknownOutcomeRetryMs: c.SMTP_UNKNOWN_OUTCOME_RETRY_SECONDS * 1000,
    devInboxDir: c.NODE_ENV === 'production' || !c.DEV_INBOX_DIR ? undefined : resolve(c.DEV_INBOX_DIR),
  };
}
