/**
 * A webhook body as stored and as sent. The stored body is sealed with the service's SecretBox: account
 * events carry SSNs and bank account numbers, resolved payments their customers' e-mails. A resolved
 * payment's body also carries its product's secret (`product_secret`, spec 2.3) so the merchant can check
 * where it came from; that secret is never stored in a delivery row (one copy per delivery and redelivery):
 * the row keeps `"product_secret":null` in its place, and the secret is put back, from the product's
 * encrypted copy, when a request is signed and sent. Every attempt and redelivery still sends the same
 * bytes, key order included.
 */
import { type Kysely, sql } from 'kysely';
import type { Database, WebhookDeliveryRow } from '../schema.ts';
import type { SecretBox } from '../secretBox.ts';

const secretKey = 'product_secret';

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Whether a stored body is still in the clear (written before bodies were sealed): JSON objects start with `{`. */
function isPlaintextWebhookPayload(stored: string): boolean {
  return stored.startsWith('{');
}

/**
 * The body as it is stored: a top-level `product_secret` replaced by null (a body serialised once, as
 * given), then sealed.
 */
export function storedWebhookPayload(secrets: SecretBox, payload: string): string {
  const body: unknown = JSON.parse(payload);
  if (!isObject(body) || typeof body[secretKey] !== 'string') return secrets.seal(payload);
  body[secretKey] = null;
  return secrets.seal(JSON.stringify(body));
}

/** The stored body in the clear (product secret still left out); a body stored before sealing is as it was. */
function openWebhookPayload(secrets: SecretBox, stored: string): string {
  return isPlaintextWebhookPayload(stored) ? stored : secrets.open(stored);
}

/** The bytes to send for `delivery`: its stored body opened, the product's secret put back where it was taken out. */
export async function webhookRequestBody(
  db: Kysely<Database>,
  secrets: SecretBox,
  delivery: Pick<WebhookDeliveryRow, 'payload' | 'product_id'>,
): Promise<string> {
  const payload = openWebhookPayload(secrets, delivery.payload);
  if (delivery.product_id === null) return payload;
  const body: unknown = JSON.parse(payload);
  if (!isObject(body) || !(secretKey in body) || body[secretKey] !== null) return payload;
  const product = await db
    .selectFrom('products')
    .select('secret_ciphertext')
    .where('id', '=', delivery.product_id)
    .executeTakeFirstOrThrow();
  body[secretKey] = secrets.open(product.secret_ciphertext);
  return JSON.stringify(body);
}

/**
 * Seals the bodies stored in the clear before bodies were sealed, `batchSize` rows per statement, keeping
 * their bytes; the number sealed. Idempotent, and safe beside another process doing the same (a row sealed
 * meanwhile is left as it is).
 */
export async function sealPlaintextWebhookPayloads(
  db: Kysely<Database>,
  secrets: SecretBox,
  batchSize = 500,
): Promise<number> {
  let sealed = 0;
  let after: string | undefined;
  for (;;) {
    const rows = await db
      .selectFrom('webhook_deliveries')
      .select(['id', 'payload'])
      .where('payload', 'like', '{%')
      .$if(after !== undefined, (qb) => qb.where('id', '>', after as string))
      .orderBy('id')
      .limit(batchSize)
      .execute();
    if (rows.length === 0) return sealed;
    const values = sql.join(rows.map((r) => sql`(${r.id}::uuid, ${secrets.seal(r.payload)})`));
    const result = await sql`update webhook_deliveries as d set payload = v.payload
      from (values ${values}) as v(id, payload)
      where d.id = v.id and d.payload like '{%'`.execute(db);
    sealed += Number(result.numAffectedRows ?? 0n);
    after = rows.at(-1)?.id;
    if (rows.length < batchSize) return sealed;
  }
}
