import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { describe, expect, it } from 'vitest';
import { migrations } from '../migrate.ts';
import { openTestDatabase, testDatabaseUnavailable } from '../testDatabase.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe.skipIf(testDatabaseUnavailable())('0018_secrets_at_rest', () => {
  it('drops clear replays, takes product secrets out of stored bodies and hashes KYC tokens', async () => {
    const db = await openTestDatabase({ migrate: false, poolSize: 1 });
    try {
      const migrator = new Migrator({ db: db.kysely, provider: { getMigrations: async () => migrations } });
      expect((await migrator.migrateTo('0017_workflow_calls')).error).toBeUndefined();
      // Rows as the previous version wrote them; the rows they reference are left out.
      await sql`set session_replication_role = replica`.execute(db.kysely);
      await sql`insert into idempotency_keys (scope, key, method, path, request_hash, response_status,
          response_body, created_at)
        values ('account:a', 'done', 'POST', '/users', 'h', 200, '{"user":{"ssn":"123-45-6789"}}', now()),
          ('account:a', 'running', 'POST', '/users', 'h', null, null, now())`.execute(db.kysely);
      const body = (secret: string) =>
        `{"is_test":false,"id":"${id(1)}","product_id":"${id(2)}","expected_payment_id":"${id(3)}",` +
        `"product_secret":"${secret}","slug":"s","metadata":{"product_secret":"kept"}}`;
      const account = '{"event":"kyc_update","payload":{"user":{"id":"u"}}}';
      await sql`insert into webhook_deliveries (id, merchant_id, event_type, subject_id, product_id, url, payload,
          status, attempt_count, next_attempt_at, created_at)
        values (${id(10)}, ${id(9)}, 'resolved_payment.created', ${id(1)}, ${id(2)}, 'https://x', ${body('ps_abc-_1')},
          'succeeded', 1, null, now()),
          (${id(11)}, ${id(9)}, 'kyc_update', ${id(4)}, null, 'https://x', ${account}, 'pending', 0, now(), now())
      `.execute(db.kysely);
      await sql`insert into kyc_sessions (id, user_id, merchant_id, token, provider, created_at)
        values (${id(20)}, ${id(21)}, ${id(9)}, 'page-token', 'sandbox', now())`.execute(db.kysely);

      expect((await migrator.migrateTo('0018_secrets_at_rest')).error).toBeUndefined();

      const keys = await db.kysely.selectFrom('idempotency_keys').select('key').execute();
      expect(keys.map((k) => k.key)).toEqual(['running']);
      const bodies = await db.kysely
        .selectFrom('webhook_deliveries')
        .select('payload')
        .orderBy('id')
        .execute();
      expect(bodies.map((b) => b.payload)).toEqual([
        body('x').replace('"product_secret":"x"', '"product_secret":null'),
        account,
      ]);
      const session = await db.kysely
        .selectFrom('kyc_sessions')
        .select('token_hash')
        .executeTakeFirstOrThrow();
      expect(session.token_hash).toBe(createHash('sha256').update('page-token').digest('hex'));
    } finally {
      await db.close();
    }
  });
});
