import { describe, expect, it } from 'vitest';
import { openTestDatabase, testDatabaseUnavailable } from '../testDatabase.ts';
import { createMerchantApiKey, listMerchantApiKeys, noteApiKeyUse, rollMerchantApiKey } from './apiKeys.ts';
import { listAuditEvents, recordAudit } from './auditLog.ts';
import { createApiKey, findMerchantByApiKey } from './merchants.ts';

const minute = 60_000;

describe.skipIf(testDatabaseUnavailable())('API keys and the audit log', () => {
  it('gives keys made without scopes every scope, and notes a key’s use at most once a minute', async () => {
    const db = await openTestDatabase({ poolSize: 1 });
    try {
      const made = await createApiKey(db.kysely, { address: `0x${'1'.repeat(40)}` });
      const found = (await findMerchantByApiKey(db.kysely, made.key))!;
      expect(found).toMatchObject({ scopes: ['all'], lastUsedAt: null });
      const t0 = new Date('2026-11-28T12:00:00.000Z');
      await noteApiKeyUse(db.kysely, found, t0);
      const lastUsed = async () => (await findMerchantByApiKey(db.kysely, made.key))!.lastUsedAt;
      expect(await lastUsed()).toEqual(t0);
      // A caller holding a stale read writes nothing within the minute: the row's own time decides.
      await noteApiKeyUse(db.kysely, found, new Date(t0.getTime() + 30_000));
      expect(await lastUsed()).toEqual(t0);
      const later = new Date(t0.getTime() + minute + 1);
      await noteApiKeyUse(db.kysely, { apiKeyId: found.apiKeyId, lastUsedAt: t0 }, later);
      expect(await lastUsed()).toEqual(later);
    } finally {
      await db.close();
    }
  });

  it('keeps a rolled key working until its overlap ends, never past an earlier end', async () => {
    const db = await openTestDatabase({ poolSize: 1 });
    try {
      const { merchantId } = await createApiKey(db.kysely, { address: `0x${'2'.repeat(40)}` });
      const t0 = new Date('2026-11-28T12:00:00.000Z');
      const old = await createMerchantApiKey(db.kysely, {
        merchantId,
        name: 'deploy',
        scopes: ['payments:read', 'payments:read'],
        mode: 'test',
        now: t0,
      });
      expect(old.row.scopes).toEqual(['payments:read']);
      const first = await rollMerchantApiKey(db.kysely, old.row, 10, t0);
      expect(first.issued.row).toMatchObject({ label: 'deploy', scopes: ['payments:read'], mode: 'test' });
      expect(first.issued.key).toMatch(/^ck_test_/);
      const works = async (key: string, at: number) =>
        (await findMerchantByApiKey(db.kysely, key, new Date(t0.getTime() + at))) !== undefined;
      expect(await works(old.key, 10 * minute - 1)).toBe(true);
      expect(await works(old.key, 10 * minute)).toBe(false);
      expect(await works(first.issued.key, 365 * 24 * 60 * minute)).toBe(true);
      // Rolled again with a longer overlap: the first end stays.
      const second = await rollMerchantApiKey(db.kysely, first.old, 60, new Date(t0.getTime() + minute));
      expect(second.old.expires_at).toEqual(new Date(t0.getTime() + 10 * minute));
      const listed = await listMerchantApiKeys(db.kysely, merchantId, new Date(t0.getTime() + 11 * minute));
      expect(listed.map((k) => k.id)).not.toContain(old.row.id);
      expect(listed.map((k) => k.id)).toContain(first.issued.row.id);
    } finally {
      await db.close();
    }
  });

  it('pages through one merchant’s audit log newest first, and only its own', async () => {
    const db = await openTestDatabase({ poolSize: 1 });
    try {
      const mine = await createApiKey(db.kysely, { address: `0x${'3'.repeat(40)}` });
      const theirs = await createApiKey(db.kysely, { address: `0x${'4'.repeat(40)}` });
      const actor = { kind: 'wallet', address: mine.address } as const;
      for (const n of [1, 2, 3, 4, 5]) {
        await recordAudit(db.kysely, {
          merchantId: mine.merchantId,
          actor,
          action: 'refund.requested',
          subject: `r${n}`,
        });
        await recordAudit(db.kysely, {
          merchantId: theirs.merchantId,
          actor: { kind: 'api_key', id: theirs.apiKeyId },
          action: 'refund.canceled',
          subject: `t${n}`,
        });
      }
      const subjects: (string | null)[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await listAuditEvents(db.kysely, mine.merchantId, {
          limit: 2,
          ...(cursor ? { cursor } : {}),
        });
        subjects.push(...page.audit_events.map((e) => e.subject_id));
        expect(page.audit_events.every((e) => e.actor.kind === 'wallet')).toBe(true);
        cursor = page.next_cursor ?? undefined;
        pages++;
      } while (cursor);
      expect(subjects).toEqual(['r5', 'r4', 'r3', 'r2', 'r1']);
      expect(pages).toBe(3);
    } finally {
      await db.close();
    }
  });
});
