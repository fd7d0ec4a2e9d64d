/**
 * The public API's per-client limit: 429 with Retry-After in the one error shape, one count shared by every
 * API process on PostgreSQL, and X-Forwarded-For believed only behind TRUST_PROXY.
 */
import { openDatabase } from '@checkout/db';
import { describe, expect, inject, it } from 'vitest';
import { createTestDatabase, databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestService } from '../support/service.ts';

const postgres = inject('databaseKind') === 'postgres';
const limit = 3;

/** Waits for a fresh minute when this one is nearly over, so a test's requests share one window. */
async function withinOneMinute(): Promise<void> {
  const into = Date.now() % 60_000;
  if (into > 45_000) await new Promise((r) => setTimeout(r, 60_000 - into + 50));
}

/** A public request (an unknown checkout: the limit counts it all the same). */
const hit = (service: TestService, forwardedFor?: string) =>
  service.request('GET', '/api/v1/checkout/no-such-shop', {
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });

const expectLimited = (res: Awaited<ReturnType<typeof hit>>) => {
  expect(res.status, res.text).toBe(429);
  expect(res.body).toMatchObject({ error_code: 'rate_limited', status: 429 });
  expect(typeof res.body.message).toBe('string');
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
};

describe.skipIf(databaseUnavailable())('public rate limit', () => {
  it('behind a trusted proxy, counts each forwarded client apart', async () => {
    const service = await startTestService({
      temporal: false,
      env: { PUBLIC_RATE_LIMIT_PER_MINUTE: String(limit), TRUST_PROXY: 'true' },
    });
    try {
      await withinOneMinute();
      for (let i = 0; i < limit; i++) expect((await hit(service, '203.0.113.1')).status).toBe(404);
      expectLimited(await hit(service, '203.0.113.1'));
      // Only the entry the trusted proxy appended counts: one the client wrote in front changes nothing.
      expectLimited(await hit(service, '198.51.100.7, 203.0.113.1'));
      expect((await hit(service, '203.0.113.2')).status).toBe(404);
    } finally {
      await service.stop();
    }
  });

  it('without TRUST_PROXY, ignores X-Forwarded-For', async () => {
    const service = await startTestService({
      temporal: false,
      env: { PUBLIC_RATE_LIMIT_PER_MINUTE: String(limit) },
    });
    try {
      await withinOneMinute();
      for (let i = 0; i < limit; i++) expect((await hit(service, `203.0.113.${i + 10}`)).status).toBe(404);
      expectLimited(await hit(service, '203.0.113.99'));
      expectLimited(await hit(service));
    } finally {
      await service.stop();
    }
  });

  it.runIf(postgres)('is one limit across API processes on one database', async () => {
    const db = await createTestDatabase();
    const other = await openDatabase({ kind: 'postgres', url: db.url!, poolSize: 2 });
    const env = { PUBLIC_RATE_LIMIT_PER_MINUTE: String(limit), TRUST_PROXY: 'true' };
    const first = await startTestService({ db, temporal: false, env });
    const second = await startTestService({ db: { ...other, url: db.url! }, temporal: false, env });
    try {
      await withinOneMinute();
      expect((await hit(first, '192.0.2.5')).status).toBe(404);
      expect((await hit(second, '192.0.2.5')).status).toBe(404);
      expect((await hit(first, '192.0.2.5')).status).toBe(404);
      // Each process alone has seen fewer than the limit; together they have reached it.
      expectLimited(await hit(second, '192.0.2.5'));
      expectLimited(await hit(first, '192.0.2.5'));
      expect((await hit(second, '192.0.2.6')).status).toBe(404);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
      await other.close();
      await db.close();
    }
  });
});
