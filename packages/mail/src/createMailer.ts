/** Plain-text e-mail over SMTP: receipts to shoppers and notifications to merchants. */
import nodemailer from 'nodemailer';

/** Where the SMTP server is and whom the messages come from. */
export interface MailerOptions {
  /**
   * `smtp://user:pass@host:587` (upgrades with STARTTLS when offered) or `smtps://user:pass@host:465`
   * (TLS from the first byte). Query parameters reach nodemailer as options, e.g. `?requireTLS=true`.
   */
  smtpUrl: string;
  /** Sender of every message, e.g. `Shop <shop@example.com>`. */
  from: string;
  /** Bound of each network wait (connect, greeting, each reply); a whole send gets three times this. */
  timeoutMs?: number;
}

/** One plain-text message. */
export interface OutgoingMail {
  to: string | readonly string[];
  subject: string;
  text: string;
  /** Where replies go, e.g. the merchant's address on a shopper's receipt; one line, no header can follow it. */
  replyTo?: string;
  /** Extra headers; names and values are checked so no header can smuggle in another. */
  headers?: Readonly<Record<string, string>>;
  /** A fixed `<local@domain>` id so a retried send of the same message can be recognised downstream. */
  messageId?: string;
  /** Gives up the send, e.g. when the calling activity is cancelled. */
  signal?: AbortSignal;
}

/** A pooled SMTP sender. */
export interface Mailer {
  /** Sends one message and resolves with its Message-ID once the server has accepted it. */
  send(mail: OutgoingMail): Promise<string>;
  /** Connects and greets the server without sending anything: for health checks. */
  verify(): Promise<void>;
  /** Closes idle connections; a message being transmitted finishes first. */
  close(): void;
}

const defaultTimeoutMs = 10_000;
const headerName = /^[!-9;-~]+$/;
const lineBreak = /[\r\n]/;
const messageIdCore = /^[^\s<>@]+@[^\s<>@]+$/;

/** Builds a mailer over a pooled nodemailer SMTP transport from an `smtp://` or `smtps://` URL. */
export function createMailer(options: MailerOptions): Mailer {
  let url: URL;
  try {
    url = new URL(options.smtpUrl);
  } catch {
    // The URL may hold a password: never echo it.
    throw new RangeError('smtpUrl is not a valid URL');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new RangeError('smtpUrl must start with smtp:// or smtps://');
  }
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const transport = nodemailer.createTransport({
    pool: true,
    url: options.smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
    // Messages are built from strings only; no content may pull in a local file or a remote URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  });

  return {
    async send(mail) {
      const headers = mail.headers ?? {};
      for (const [name, value] of Object.entries(headers)) {
        if (!headerName.test(name) || lineBreak.test(value)) {
          throw new RangeError(`header ${JSON.stringify(name)} is not a single valid header line`);
        }
      }
      if (mail.replyTo !== undefined && lineBreak.test(mail.replyTo)) {
        throw new RangeError('replyTo is not a single address line');
      }
      const recipients = typeof mail.to === 'string' ? [mail.to] : [...mail.to];
      if (recipients.length === 0) throw new RangeError('a message needs at least one recipient');
      // Socket timeouts miss a server that trickles its replies; the deadline bounds the whole send.
      const deadline = AbortSignal.timeout(timeoutMs * 3);
      const signal = mail.signal ? AbortSignal.any([mail.signal, deadline]) : deadline;
      const info = await transport.sendMail({
        from: options.from,
        to: recipients,
        subject: mail.subject,
        text: mail.text,
        ...(mail.replyTo === undefined ? {} : { replyTo: mail.replyTo }),
        headers: { ...headers },
        ...(mail.messageId === undefined ? {} : { messageId: normalizeMessageId(mail.messageId) }),
        signal,
      });
      return info.messageId;
    },
    async verify() {
      await transport.verify();
    },
    close() {
      transport.close();
    },
  };
}

/** `<local@domain>` from either that form or the bare `local@domain`. */
function normalizeMessageId(value: string): string {
  const trimmed = value.trim();
  const core = trimmed.startsWith('<') && trimmed.endsWith('>') ? trimmed.slice(1, -1) : trimmed;
  if (!messageIdCore.test(core)) throw new RangeError(`not a Message-ID: ${JSON.stringify(value)}`);
  return `<${core}>`;
}
