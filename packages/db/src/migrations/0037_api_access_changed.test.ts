import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { describe, expect, it } from 'vitest';
import { migrations } from '../migrate.ts';
import { noteApiKeyUse } from '../repositories/apiKeys.ts';
import { apiAccessChannel, createApiKey, revokeApiKey } from '../repositories/merchants.ts';
import { openTestDatabase, testDatabaseUnavailable } from '../testDatabase.ts';

describe.skipIf(testDatabaseUnavailable())('0037_api_access_changed', () => {
  it("announces a key's revocation and a wallet's change with the merchant, never a noted use; down drops it", async () => {
    const db = await openTestDatabase();
    const notices: string[] = [];
    let arrived = () => {};
    const unlisten = await db.listen(apiAccessChannel, {
      onNotify: (payload) => {
        notices.push(payload);
        arrived();
      },
      onListening: () => {},
    });
    /** Resolves once a notice with `payload` has arrived. */
    const noticeOf = (payload: string) =>
      new Promise<void>((resolve) => {
        arrived = () => notices.includes(payload) && resolve();
        arrived();
      });
    try {
      const keyed = await createApiKey(db.kysely, { address: '0x00000000000000000000000000000000000000a1' });
      const other = await createApiKey(db.kysely, { address: '0x00000000000000000000000000000000000000a2' });
      const key = await db.kysely
        .selectFrom('api_keys')
        .select('id')
        .where('merchant_id', '=', keyed.merchantId)
        .executeTakeFirstOrThrow();
      expect(await noteApiKeyUse(db.kysely, { apiKeyId: key.id, lastUsedAt: null })).toBe(true);
      await revokeApiKey(db.kysely, key.id);
      await db.kysely
        .updateTable('merchant_addresses')
        .set((eb) => ({ products_version: eb('products_version', '+', 1) }))
        .where('merchant_id', '=', other.merchantId)
        .execute();
      // Notices arrive in commit order: once the last change's is here, every earlier one's is too.
      await noticeOf(other.merchantId);
      expect(notices).toEqual([keyed.merchantId, other.merchantId]);

      const migrator = new Migrator({ db: db.kysely, provider: { getMigrations: async () => migrations } });
      const triggers = async () =>
        (
          await sql<{ tgname: string }>`select tgname from pg_trigger where tgname like '%access_%'
            order by tgname`.execute(db.kysely)
        ).rows.map((r) => r.tgname);
      expect(await triggers()).toEqual([
        'api_keys_access_changed',
        'api_keys_access_removed',
        'merchant_addresses_access_changed',
      ]);
      expect((await migrator.migrateTo('0036_unmatched_deposit_address')).error).toBeUndefined();
      expect(await triggers()).toEqual([]);
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await triggers()).toHaveLength(3);
    } finally {
      await unlisten();
      await db.close();
    }
  });
});
