/**
 * The secret a session's opener is given (once, when it opens): only its holder changes or closes the
 * session. It is kept as its SHA-256 hash; the secret itself is never stored.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CheckoutSessionRow } from '@checkout/db';

/** A new opener's secret: `cs_` and 24 random bytes (base64url). */
export function newClientSecret(): string {
  return `cs_${randomBytes(24).toString('base64url')}`;
}

/** The stored form of an opener's secret (SHA-256, hex): the secret itself is never kept. */
export function clientSecretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Whether `given` is the secret whose hash the session keeps (compared in constant time). */
export function isOpenerSecret(
  session: Pick<CheckoutSessionRow, 'client_secret_hash'>,
  given: string | undefined,
) {
  if (!given || !session.client_secret_hash) return false;
  const a = Buffer.from(clientSecretHash(given), 'hex');
  const b = Buffer.from(session.client_secret_hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
