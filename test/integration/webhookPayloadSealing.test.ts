/**
 * Webhook bodies an earlier version stored in the clear are sealed when the service starts: byte for byte,
 * once, in batches, leaving bodies already sealed as they are; what is sent for them stays the same bytes.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  createSecretBox,
  createWebhookDelivery,
  sealPlaintextWebhookPayloads,
  webhookRequestBody,
} from '@checkout/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseUnavailable, type TestDatabase } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';

describe.skipIf(databaseUnavailable())('webhook bodies stored in the clear', () => {
  const key = randomBytes(32);
  const secrets = createSecretBox(key);
  const env = { SECRET_KEY: key.toString('hex') };
  let db: TestDatabase;
  let service: TestService | undefined;
  let merchant: TestMerchant;

  beforeAll(async () => {
    db = await createTestDatabase();
    const first = await startTestService({ db, temporal: false, env });
    merchant = await first.createMerchant();
    await first.stop();
  });
  afterAll(async () => {
    await service?.stop();
    await db?.close();
  });

  /** A row as the earlier version wrote it: the body in the clear. */
  async function legacyRow(payload: string): Promise<string> {
    const id = randomUUID();
    await db.kysely
      .insertInto('webhook_deliveries')
      .values({
        id,
        merchant_id: merchant.merchantId,
        event_type: 'kyc_update',
        subject_id: `${randomUUID()}:kyc:1`,
        product_id: null,
        url: 'https://shop.example/hooks',
        payload,
        status: 'succeeded',
        last_status_code: 200,
        last_error: null,
        next_attempt_at: null,
        redelivery_of: null,
        sequence_subject: randomUUID(),
        event_sequence: 1,
        created_at: new Date(),
        delivered_at: new Date(),
      })
      .execute();
    return id;
  }

  const stored = async (id: string) =>
    db.kysely.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('seals them at start, byte for byte, and only once', async () => {
    const ssn = `${randomBytes(4).readUInt32BE()}`.padStart(9, '0');
    // Spacing and key order as the earlier version wrote them: the bytes sent must not change.
    const payload = `{"event":"kyc_update","payload":{"user":{"ssn":"${ssn}","last_name":"Ünal ☕"}}}`;
    const legacy = await legacyRow(payload);
    const sealedBefore = await createWebhookDelivery(db.kysely, secrets, {
      merchantId: merchant.merchantId,
      eventType: 'kyc_update',
      subjectId: `${randomUUID()}:kyc:1`,
      url: 'https://shop.example/hooks',
      payload: () => '{"event":"kyc_update","payload":{}}',
    });
    // Read as it is until then: a body in the clear is sent as stored.
    expect(await webhookRequestBody(db.kysely, secrets, await stored(legacy))).toBe(payload);

    service = await startTestService({ db, temporal: false, env });
    const row = await stored(legacy);
    expect(row.payload).not.toContain(ssn);
    expect(secrets.open(row.payload)).toBe(payload);
    expect(await webhookRequestBody(db.kysely, secrets, row)).toBe(payload);
    expect((await stored(sealedBefore.id)).payload).toBe(sealedBefore.payload);

    // Another start finds nothing left to seal.
    await service.stop();
    service = await startTestService({ db, temporal: false, env });
    expect((await stored(legacy)).payload).toBe(row.payload);
  });

  it('seals in batches until none is left', async () => {
    const bodies = Array.from({ length: 5 }, (_, i) => `{"event":"kyc_update","payload":{"n":${i}}}`);
    const ids = await Promise.all(bodies.map((b) => legacyRow(b)));
    expect(await sealPlaintextWebhookPayloads(db.kysely, secrets, 2)).toBe(5);
    expect(await sealPlaintextWebhookPayloads(db.kysely, secrets, 2)).toBe(0);
    for (const [i, id] of ids.entries()) expect(secrets.open((await stored(id)).payload)).toBe(bodies[i]);
  });
});
