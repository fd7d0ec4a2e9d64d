/**
 * A webhook body as stored and as sent. A resolved payment's body carries its product's secret
 * (`product_secret`, spec 2.3) so the merchant can check where it came from; that secret is never stored in
 * a delivery row (one copy per delivery and redelivery, in the clear): the row keeps `"product_secret":null`
 * in its place, and the secret is put back, from the product's encrypted copy, when a request is signed and
 * sent. Every attempt and redelivery still sends the same bytes, key order included.
 */
import type { Kysely } from 'kysely';
import type { Database, WebhookDeliveryRow } from '../schema.ts';
import type { SecretBox } from '../secretBox.ts';

const secretKey = 'product_secret';

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The body as it is stored: a top-level `product_secret` replaced by null (a body serialised once, as given). */
export function storedWebhookPayload(payload: string): string {
  const body: unknown = JSON.parse(payload);
  if (!isObject(body) || typeof body[secretKey] !== 'string') return payload;
  body[secretKey] = null;
  return JSON.stringify(body);
}

/** The bytes to send for `delivery`: its stored body with the product's secret put back where it was taken out. */
export async function webhookRequestBody(
  db: Kysely<Database>,
  secrets: SecretBox,
  delivery: Pick<WebhookDeliveryRow, 'payload' | 'product_id'>,
): Promise<string> {
  if (delivery.product_id === null) return delivery.payload;
  const body: unknown = JSON.parse(delivery.payload);
  if (!isObject(body) || !(secretKey in body) || body[secretKey] !== null) return delivery.payload;
  const product = await db
    .selectFrom('products')
    .select('secret_ciphertext')
    .where('id', '=', delivery.product_id)
    .executeTakeFirstOrThrow();
  body[secretKey] = secrets.open(product.secret_ciphertext);
  return JSON.stringify(body);
}
