/** Plain-text e-mail over SMTP: receipts to shoppers and notifications to merchants. */
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';

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
  /** How long to wait before the one retry of a send whose outcome is unknown; 60 s by default. */
  unknownOutcomeRetryMs?: number;
  /** Called each time a send's outcome is unknown (for a metric). */
  onOutcomeUnknown?: () => void;
}

/**
 * The server took the whole message and the connection failed before its final answer: the message may
 * have been accepted, or not. Such a send is retried at most once, after {@link retryDelayMs} (see
 * `performOnce` in the workflows), since a retry may deliver a second copy (with the same Message-ID).
 */
export class MailOutcomeUnknownError extends Error {
  override name = 'MailOutcomeUnknownError';
  /** Marks an effect whose outcome is unknown, for the exactly-once machinery. */
  readonly outcomeUnknown = true;
  readonly retryDelayMs: number;
  constructor(message: string, retryDelayMs: number, cause: unknown) {
    super(message, { cause });
    this.retryDelayMs = retryDelayMs;
  }
}

/** One plain-text message. */
export interface OutgoingMail {
  to: string | readonly string[];
  subject: string;
  text: string;
  /** Where replies go, e.g. the merchant's address on a shopper's receipt; one line, no header can follow it. */
  replyTo?: string;
  /** The shop the message speaks for: the sender reads `<fromName> via <the configured name>`, same address. */
  fromName?: string;
  /** Extra headers; names and values are checked so no header can smuggle in another. */
  headers?: Readonly<Record<string, string>>;
  /** A fixed `<local@domain>` id so a retried send of the same message can be recognised downstream. */
  messageId?: string;
  /** Gives up the send, e.g. when the calling activity is cancelled. */
  signal?: AbortSignal;
}

/** An SMTP sender. */
export interface Mailer {
  /**
   * Sends one message and resolves with its Message-ID once the server has accepted it. Rejects with a
   * {@link MailOutcomeUnknownError} when the server took the whole message but gave no final answer, with
   * the server's refusal (`responseCode` 4xx or 5xx) when it refused, and with the network error otherwise.
   */
  send(mail: OutgoingMail): Promise<string>;
  /** Connects and greets the server without sending anything: for health checks. */
  verify(): Promise<void>;
}

/**
 * The sender of a message: the configured one (`Name <address>` or an address), with `shop` first in its
 * name when given; line breaks and quotes are taken out of the name.
 * @internal exported for its unit test
 */
export function senderOf(from: string, shop: string | undefined): string | { name: string; address: string } {
  if (shop === undefined) return from;
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(from);
  const name = match?.[1]?.trim() ?? '';
  const address = match?.[2] ?? from.trim();
  const clean = shop.replace(/[\r\n"]+/g, ' ').trim();
  return { name: name ? `${clean} via ${name}` : clean, address };
}

const defaultTimeoutMs = 10_000;
const defaultUnknownOutcomeRetryMs = 60_000;
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
  const unknownOutcomeRetryMs = options.unknownOutcomeRetryMs ?? defaultUnknownOutcomeRetryMs;
  const settings: SMTPTransport.Options = {
    url: options.smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
    // Messages are built from strings only; no content may pull in a local file or a remote URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  };

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
      // One connection per message, so that its log tells whether this message's data (up to the final
      // dot) was handed to the server: only then can a failure leave its outcome unknown.
      const watch = transmissionWatch();
      const transport = nodemailer.createTransport({ ...settings, logger: watch.logger });
      try {
        const info = await transport.sendMail({
          from: senderOf(options.from, mail.fromName),
          to: recipients,
          subject: mail.subject,
          text: mail.text,
          ...(mail.replyTo === undefined ? {} : { replyTo: mail.replyTo }),
          headers: { ...headers },
          ...(mail.messageId === undefined ? {} : { messageId: normalizeMessageId(mail.messageId) }),
          signal,
        });
        return info.messageId;
      } catch (error) {
        const refused = typeof (error as { responseCode?: unknown }).responseCode === 'number';
        if (!watch.transmitted() || refused) throw error;
        options.onOutcomeUnknown?.();
        throw new MailOutcomeUnknownError(
          `the SMTP server took the message but gave no final answer: ${(error as Error).message}`,
          unknownOutcomeRetryMs,
          error,
        );
      } finally {
        transport.close();
      }
    },
    async verify() {
      const transport = nodemailer.createTransport(settings);
      try {
        await transport.verify();
      } finally {
        transport.close();
      }
    },
  };
}

/**
 * A nodemailer logger that notes when the connection has written a whole message: its SMTP connection logs
 * `<n bytes encoded mime message …>` (`tnx: 'message'`) once the data, final dot included, went to the socket.
 */
function transmissionWatch() {
  let transmitted = false;
  const ignore = () => undefined;
  const logger = {
    level: ignore,
    trace: ignore,
    debug: ignore,
    info: (entry: unknown) => {
      const e = entry as { tnx?: unknown; outByteCount?: unknown } | undefined;
      if (e?.tnx === 'message' && typeof e.outByteCount === 'number') transmitted = true;
    },
    warn: ignore,
    error: ignore,
    fatal: ignore,
  };
  return { logger, transmitted: () => transmitted };
}

/** `<local@domain>` from either that form or the bare `local@domain`. */
function normalizeMessageId(value: string): string {
  const trimmed = value.trim();
  const core = trimmed.startsWith('<') && trimmed.endsWith('>') ? trimmed.slice(1, -1) : trimmed;
  if (!messageIdCore.test(core)) throw new RangeError(`not a Message-ID: ${JSON.stringify(value)}`);
  return `<${core}>`;
}
