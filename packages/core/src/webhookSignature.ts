/**
 * Webhook signatures: `X-Sig: t=<unix seconds>, s=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
 * WebCrypto only, so the same code runs in the service, in merchants' Node servers and in browsers.
 */

/** Names of the headers every webhook request carries. */
export const webhookHeaderNames = {
  /** `t=<unix seconds>, s=<hex signature>`. */
  signature: 'X-Sig',
  /** The delivery id: the same on every retry of one delivery, so receivers can deduplicate. */
  id: 'X-Webhook-Id',
  /** On a redelivery, the id of the first delivery of the event. */
  originalId: 'X-Webhook-Original-Id',
  /** The event type, e.g. `resolved_payment.created`. */
  event: 'X-Webhook-Event',
  /** The event's id, `evt_…`: the same on every retry and redelivery of the event. */
  eventId: 'X-Event-Id',
  /**
   * The event's place among the events about the same record (a payment, a refund, an onramp…), from 1: an
   * event whose sequence is below one already handled for that record is stale. A redelivery keeps it.
   */
  eventSequence: 'X-Event-Sequence',
  /** `true` on a sample event sent on the merchant's request; absent on real ones. */
  test: 'X-Test-Event',
} as const;

/**
 * Seconds a signature stays acceptable by default: five minutes either side of the receiver's clock.
 * @public of the merchant SDK
 */
export const defaultWebhookToleranceSeconds = 300;

/**
 * A raw request body: the exact bytes received, or the same bytes as a string.
 * @public of the merchant SDK
 */
export type WebhookBody = string | Uint8Array;

/** Input of {@link signWebhook}. */
export interface SignWebhookParameters {
  /** The merchant's webhook secret (`whsec_…`); its UTF-8 bytes are the HMAC key. */
  secret: string;
  /** Unix time in seconds. */
  timestamp: number;
  body: WebhookBody;
}

/**
 * Why a signature was refused.
 * @public of the merchant SDK
 */
export type WebhookVerificationFailure = 'malformed_header' | 'stale_timestamp' | 'signature_mismatch';

/** Result of {@link verifyWebhookSignature}. */
export type WebhookVerification =
  | { ok: true; timestamp: number }
  | { ok: false; reason: WebhookVerificationFailure };

/** Input of {@link verifyWebhookSignature}. */
export interface VerifyWebhookSignatureParameters {
  /**
   * The webhook secret; or, while a rotation settles, the new and the previous one: a request signed with
   * either passes (deliveries signed just before the rotation may still be on their way or retried).
   */
  secret: string | readonly string[];
  /** The `X-Sig` header value. */
  header: string | null | undefined;
  /** The raw body exactly as received (not re-serialised JSON). */
  body: WebhookBody;
  /** Largest accepted distance between the signed time and `now`, in seconds. */
  toleranceSeconds?: number;
  /** The receiver's clock in epoch milliseconds; `Date.now()` when absent. */
  now?: number;
}

const encoder = new TextEncoder();

// The global CryptoKey type is DOM-only; this names it without the DOM library.
type HmacKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;
const hexPair = /^[0-9a-f]{2}$/;

function bytesOf(body: WebhookBody): Uint8Array {
  return typeof body === 'string' ? encoder.encode(body) : body;
}

/** `"<t>."` followed by the body bytes: the signed message. */
function signedMessage(timestamp: number, body: WebhookBody): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${timestamp}.`);
  const raw = bytesOf(body);
  const message = new Uint8Array(prefix.length + raw.length);
  message.set(prefix, 0);
  message.set(raw, prefix.length);
  return message;
}

function hmacKey(secret: string, usage: 'sign' | 'verify'): Promise<HmacKey> {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    usage,
  ]);
}

function toHex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
}

function fromHex(hex: string): Uint8Array<ArrayBuffer> | undefined {
  if (hex.length % 2 !== 0) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) {
    const pair = hex.slice(i * 2, i * 2 + 2);
    if (!hexPair.test(pair)) return undefined;
    out[i] = Number.parseInt(pair, 16);
  }
  return out;
}

function assertTimestamp(timestamp: number): void {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError('the webhook timestamp must be a non-negative integer of Unix seconds');
  }
}

/** Hex HMAC-SHA256 of `"<timestamp>.<body>"` under the secret. */
export async function signWebhook({ secret, timestamp, body }: SignWebhookParameters): Promise<string> {
  assertTimestamp(timestamp);
  const key = await hmacKey(secret, 'sign');
  return toHex(await crypto.subtle.sign('HMAC', key, signedMessage(timestamp, body)));
}

/** The `X-Sig` header value: `t=<timestamp>, s=<signature>`. */
export function webhookSignatureHeader(timestamp: number, signature: string): string {
  assertTimestamp(timestamp);
  return `t=${timestamp}, s=${signature}`;
}

/** Splits an `X-Sig` value into its timestamp and signature bytes, or undefined when malformed. */
function parseSignatureHeader(
  header: string,
): { timestamp: number; signature: Uint8Array<ArrayBuffer> } | undefined {
  const fields = new Map<string, string>();
  const parts = header.split(',');
  // Exactly two fields: a longer header is not one we produced.
  if (parts.length !== 2) return undefined;
  for (const part of parts) {
    const separator = part.indexOf('=');
    if (separator <= 0) return undefined;
    const name = part.slice(0, separator).trim();
    if (fields.has(name)) return undefined;
    fields.set(name, part.slice(separator + 1).trim());
  }
  const t = fields.get('t');
  const s = fields.get('s');
  if (t === undefined || s === undefined || !/^\d{1,15}$/.test(t) || s.length !== 64) return undefined;
  const signature = fromHex(s.toLowerCase());
  return signature ? { timestamp: Number(t), signature } : undefined;
}

/**
 * Checks an `X-Sig` header against the raw body: well-formed, signed within `toleranceSeconds` of
 * `now`, and a matching HMAC (compared by WebCrypto's verify, which runs in constant time).
 */
export async function verifyWebhookSignature({
  secret,
  header,
  body,
  toleranceSeconds = defaultWebhookToleranceSeconds,
  now = Date.now(),
}: VerifyWebhookSignatureParameters): Promise<WebhookVerification> {
  const parsed = header ? parseSignatureHeader(header) : undefined;
  if (!parsed) return { ok: false, reason: 'malformed_header' };
  if (Math.abs(Math.floor(now / 1000) - parsed.timestamp) > toleranceSeconds) {
    return { ok: false, reason: 'stale_timestamp' };
  }
  const message = signedMessage(parsed.timestamp, body);
  for (const candidate of typeof secret === 'string' ? [secret] : secret) {
    const key = await hmacKey(candidate, 'verify');
    if (await crypto.subtle.verify('HMAC', key, parsed.signature, message)) {
      return { ok: true, timestamp: parsed.timestamp };
    }
  }
  return { ok: false, reason: 'signature_mismatch' };
}
