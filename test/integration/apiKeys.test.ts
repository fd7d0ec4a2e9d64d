/**
 * API keys with scopes: every route checks the scope its document declares (403 naming it); a key makes only
 * keys within its own power; a rolled key works through its overlap and stops after it; a revoked key stops at
 * once; the audit log records each change with the key that made it; one merchant never sees another's keys or
 * audit log.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { waitFor } from '../support/waitFor.ts';

type Operation = { security?: { apiKey: string[] }[]; 'x-required-scope'?: string };
type AuditEvent = { action: string; subject_id: string | null; actor: { kind: string; id?: string } };

describe.skipIf(databaseUnavailable())('API keys with scopes', () => {
  let service: TestService;
  let merchant: TestMerchant;
  let other: TestMerchant;

  beforeAll(async () => {
    service = await startTestService({ temporal: false });
    merchant = await service.createMerchant();
    other = await service.createMerchant();
  });
  afterAll(async () => {
    await service?.stop();
  });

  /** The headers of `key` on `who`'s wallet. */
  const as = (key: string, who: TestMerchant = merchant) => ({
    authorization: `Bearer ${key}`,
    'x-address': who.address,
  });
  const createKey = (headers: Record<string, string>, json: Record<string, unknown>) =>
    service.request('POST', '/api/v1/api_keys', { headers, json });
  /** A new key of `who`'s holding `scopes`, made with `who`'s own key (which holds `all`). */
  const keyWith = async (scopes: string[], who: TestMerchant = merchant) => {
    const made = await createKey(who.headers, { name: `holds ${scopes.join(' ')}`, scopes });
    expect(made.status, made.text).toBe(201);
    return made.body as { key: string; api_key: { id: string } };
  };
  const auditLog = async (headers: Record<string, string>, query = '') => {
    const res = await service.request('GET', `/api/v1/audit_log${query}`, { headers });
    expect(res.status, res.text).toBe(200);
    return res.body as { audit_events: AuditEvent[]; next_cursor: string | null };
  };
  const productBody = {
    product: {
      name: 'Beans',
      email: 'shop@example.com',
      token: {
        blockchain: 'ethereum',
        network: 'mainnet',
        address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      },
    },
  };

  it('answers a read-only key 403 naming the scope on a write, before reading its body', async () => {
    const { key } = await keyWith(['products:read', 'payments:read']);
    expect((await service.request('GET', '/api/v1/products', { headers: as(key) })).status).toBe(200);
    const refused = await service.request('POST', '/api/v1/products', {
      headers: as(key),
      json: productBody,
    });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body).toEqual({
      error_code: 'insufficient_scope',
      message: 'This request needs the scope products:write, which this API key does not hold',
      status: 403,
      errors: [{ path: 'scope', message: 'products:write is required' }],
    });
    expect(refused.headers.get('www-authenticate')).toBe(
      'Bearer error="insufficient_scope", scope="products:write"',
    );
    // Not JSON at all: the scope is refused first all the same.
    const unread = await service.request('POST', '/api/v1/products', {
      headers: { ...as(key), 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(unread.status).toBe(403);
    expect(
      (await service.request('GET', '/api/v1/products', { headers: merchant.headers })).body.products,
    ).toEqual([]);
  });

  it('enforces on every route the scope its document declares, and the document declares one on every keyed route', async () => {
    const doc = (await service.request('GET', '/openapi.json')).body;
    const { key } = await keyWith(['audit:read']);
    const failures: string[] = [];
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
      for (const [method, op] of Object.entries(item)) {
        if (!op.security) continue;
        const scope = op['x-required-scope'];
        // A key, or (on /api/v1 and the sandbox) a key or the console's session, holding the scope.
        const declared = [[{ apiKey: [scope] }], [{ apiKey: [scope] }, { consoleSession: [scope] }]];
        if (!scope || !declared.some((d) => JSON.stringify(d) === JSON.stringify(op.security))) {
          failures.push(`${method} ${path} declares ${JSON.stringify(op.security)} / ${scope}`);
          continue;
        }
        if (scope === 'audit:read') continue;
        const url = path.replace(/\{\w+\}/g, () => randomUUID());
        const withBody = ['post', 'put', 'patch'].includes(method);
        const res = await service.request(method.toUpperCase(), url, {
          headers: as(key),
          ...(withBody ? { json: {} } : {}),
        });
        checked++;
        if (res.status !== 403 || res.body?.errors?.[0]?.message !== `${scope} is required`) {
          failures.push(`${method} ${path}: ${res.status} ${res.text.slice(0, 160)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it('lets a key make only keys within its own scopes and mode', async () => {
    const { key } = await keyWith(['keys:write', 'payments:read']);
    const beyond = await createKey(as(key), {
      name: 'more',
      scopes: ['payments:read', 'refunds:write', 'all'],
    });
    expect(beyond.status, beyond.text).toBe(403);
    expect(beyond.body.error_code).toBe('insufficient_scope');
    expect(beyond.body.errors.map((e: { path: string }) => e.path)).toEqual(['scopes.1', 'scopes.2']);
    const within = await createKey(as(key), { name: 'reader', scopes: ['payments:read'] });
    expect(within.status, within.text).toBe(201);
    expect(within.body.api_key).toMatchObject({ name: 'reader', scopes: ['payments:read'], mode: 'live' });
    expect(within.body.key).toMatch(/^ck_live_[A-Za-z0-9_-]{43}$/);

    const test = await createKey(merchant.headers, { name: 'test', scopes: ['keys:write'], mode: 'test' });
    expect(test.body.key).toMatch(/^ck_test_/);
    const live = await createKey(as(test.body.key), { name: 'live', scopes: ['keys:write'], mode: 'live' });
    expect(live.status).toBe(403);
    expect(live.body).toMatchObject({ error_code: 'forbidden', errors: [{ path: 'mode' }] });
    const defaulted = await createKey(as(test.body.key), { name: 'also test', scopes: ['keys:write'] });
    expect(defaulted.body.api_key.mode).toBe('test');

    const bad = await createKey(merchant.headers, { name: '', scopes: ['payments:reed'] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['name', 'scopes.0']);
  });

  it("replays a key's creation to its own caller only", async () => {
    const narrow = await keyWith(['keys:write']);
    const request = { name: 'deploy', scopes: ['all'] };
    const retry = (headers: Record<string, string>) =>
      service.request('POST', '/api/v1/api_keys', {
        headers: { ...headers, 'idempotency-key': 'deploy-key-1' },
        json: request,
      });
    const first = await retry(merchant.headers);
    expect(first.status, first.text).toBe(201);
    const again = await retry(merchant.headers);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.key).toBe(first.body.key);
    const other = await retry(as(narrow.key));
    expect(other.status, other.text).toBe(403);
    expect(other.text).not.toContain(first.body.key);
  });

  it('lists keys with name, scopes, mode and last use, never a secret, noting use at most once a minute', async () => {
    const made = await keyWith(['products:read']);
    const listed = async () =>
      (await service.request('GET', '/api/v1/api_keys', { headers: merchant.headers })).body
        .api_keys as Array<Record<string, unknown>>;
    const before = (await listed()).find((k) => k.id === made.api_key.id)!;
    expect(before).toMatchObject({
      name: 'holds products:read',
      scopes: ['products:read'],
      last_used_at: null,
    });
    expect(JSON.stringify(await listed())).not.toContain(made.key);
    await service.request('GET', '/api/v1/products', { headers: as(made.key) });
    const used = (await listed()).find((k) => k.id === made.api_key.id)!;
    expect(used.last_used_at).toEqual(expect.any(String));
    await service.request('GET', '/api/v1/products', { headers: as(made.key) });
    expect((await listed()).find((k) => k.id === made.api_key.id)!.last_used_at).toBe(used.last_used_at);
  });

  it('rolls a key: the old one works through the overlap and stops after it; the new one goes on', async () => {
    const old = await keyWith(['products:read', 'keys:write']);
    const rolled = await service.request('POST', `/api/v1/api_keys/${old.api_key.id}/roll`, {
      headers: as(old.key),
      json: { overlap_minutes: 30 },
    });
    expect(rolled.status, rolled.text).toBe(201);
    const { key: next, api_key: nextKey, previous_api_key: previous } = rolled.body;
    expect(nextKey).toMatchObject({
      name: 'holds products:read keys:write',
      scopes: ['products:read', 'keys:write'],
    });
    const end = Date.parse(previous.expires_at);
    expect(end - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(end - Date.now()).toBeLessThanOrEqual(30 * 60_000);
    for (const key of [old.key, next]) {
      expect((await service.request('GET', '/api/v1/products', { headers: as(key) })).status).toBe(200);
    }
    // The overlap runs out: its end is moved to a moment ago rather than waited for.
    await service.deps.db.kysely
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 1_000) })
      .where('id', '=', old.api_key.id)
      .execute();
    // Written as another process would, the change reaches this one by its notice (authCache.ts).
    const stopped = await waitFor(
      () => service.request('GET', '/api/v1/products', { headers: as(old.key) }),
      (res) => res.status !== 200,
      'the expired key refused',
    );
    expect(stopped.status).toBe(401);
    expect(stopped.body.error_code).toBe('unauthorized');
    expect((await service.request('GET', '/api/v1/products', { headers: as(next) })).status).toBe(200);
    const ids = (
      await service.request('GET', '/api/v1/api_keys', { headers: merchant.headers })
    ).body.api_keys.map((k: { id: string }) => k.id);
    expect(ids).toContain(nextKey.id);
    expect(ids).not.toContain(old.api_key.id);

    // No overlap: the old key stops at once.
    const quick = await service.request('POST', `/api/v1/api_keys/${nextKey.id}/roll`, {
      headers: merchant.headers,
      json: { overlap_minutes: 0 },
    });
    expect(quick.status, quick.text).toBe(201);
    expect((await service.request('GET', '/api/v1/products', { headers: as(next) })).status).toBe(401);
    expect((await service.request('GET', '/api/v1/products', { headers: as(quick.body.key) })).status).toBe(
      200,
    );
  });

  it('never rolls a key into one holding more than the caller', async () => {
    const small = await keyWith(['keys:write']);
    const big = await keyWith(['products:write', 'keys:write']);
    const refused = await service.request('POST', `/api/v1/api_keys/${big.api_key.id}/roll`, {
      headers: as(small.key),
      json: { overlap_minutes: 5 },
    });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.error_code).toBe('insufficient_scope');
    expect((await service.request('GET', '/api/v1/products', { headers: as(big.key) })).status).toBe(403);
  });

  it('revokes a key: 401 at once, gone from the list, a second revoke 404', async () => {
    const doomed = await keyWith(['products:read']);
    const revoked = await service.request('DELETE', `/api/v1/api_keys/${doomed.api_key.id}`, {
      headers: merchant.headers,
    });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body.api_key.id).toBe(doomed.api_key.id);
    const refused = await service.request('GET', '/api/v1/products', { headers: as(doomed.key) });
    expect(refused.status).toBe(401);
    const again = await service.request('DELETE', `/api/v1/api_keys/${doomed.api_key.id}`, {
      headers: merchant.headers,
    });
    expect(again.status).toBe(404);
  });

  it("keeps each merchant's keys and audit log its own", async () => {
    const mine = await keyWith(['products:read']);
    const theirs = await keyWith(['products:read'], other);
    const otherList = (await service.request('GET', '/api/v1/api_keys', { headers: other.headers })).body
      .api_keys;
    const otherIds = otherList.map((k: { id: string }) => k.id);
    expect(otherIds).toContain(theirs.api_key.id);
    expect(otherIds).not.toContain(mine.api_key.id);
    for (const [method, path, json] of [
      ['POST', `/api/v1/api_keys/${mine.api_key.id}/roll`, { overlap_minutes: 5 }],
      ['DELETE', `/api/v1/api_keys/${mine.api_key.id}`, undefined],
    ] as const) {
      const res = await service.request(method, path, { headers: other.headers, ...(json ? { json } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error_code).toBe('record_not_found');
    }
    expect((await service.request('GET', '/api/v1/products', { headers: as(mine.key) })).status).toBe(200);
    // Another merchant's key is not a key of this wallet's merchant.
    expect(
      (await service.request('GET', '/api/v1/products', { headers: as(theirs.key, merchant) })).status,
    ).toBe(403);

    const theirLog = (await auditLog(other.headers)).audit_events;
    expect(theirLog.map((e) => e.subject_id)).toContain(theirs.api_key.id);
    expect(theirLog.map((e) => e.subject_id)).not.toContain(mine.api_key.id);
    const myLog = (await auditLog(merchant.headers)).audit_events;
    expect(myLog.map((e) => e.subject_id)).not.toContain(theirs.api_key.id);
  });

  it('writes an audit line for each change, naming the key that made it, newest first, page by page', async () => {
    const fresh = await service.createMerchant();
    const admin = await keyWith(['all'], fresh);
    const reader = await keyWith(['audit:read'], fresh);
    const made = await createKey(as(admin.key, fresh), { name: 'ci', scopes: ['payments:read'] });
    const rolled = await service.request('POST', `/api/v1/api_keys/${made.body.api_key.id}/roll`, {
      headers: as(admin.key, fresh),
      json: { overlap_minutes: 5 },
    });
    await service.request('DELETE', `/api/v1/api_keys/${rolled.body.api_key.id}`, {
      headers: as(admin.key, fresh),
    });
    const rotated = await service.request('POST', '/api/v1/webhook_secret/rotate', {
      headers: as(admin.key, fresh),
    });
    expect(rotated.status, rotated.text).toBe(200);
    // A refused change leaves no line.
    await service.request('DELETE', `/api/v1/api_keys/${randomUUID()}`, { headers: as(admin.key, fresh) });

    const { audit_events: events, next_cursor } = await auditLog(as(reader.key, fresh));
    expect(next_cursor).toBeNull();
    expect(events.map((e) => [e.action, e.subject_id])).toEqual([
      ['webhook_secret.rotated', fresh.merchantId],
      ['api_key.revoked', rolled.body.api_key.id],
      ['api_key.rolled', made.body.api_key.id],
      ['api_key.created', made.body.api_key.id],
      ['api_key.created', reader.api_key.id],
      ['api_key.created', admin.api_key.id],
    ]);
    expect(events.slice(0, 4).map((e) => e.actor)).toEqual(
      Array(4).fill({ kind: 'api_key', id: admin.api_key.id }),
    );
    expect(events[5]!.actor).toEqual({ kind: 'api_key', id: expect.any(String) });

    const pages: string[][] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = await auditLog(as(reader.key, fresh), `?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      pages.push(page.audit_events.map((e) => e.action));
      cursor = page.next_cursor;
    }
    expect(pages.map((p) => p.length)).toEqual([4, 2]);
    expect(pages.flat()).toEqual(events.map((e) => e.action));
    const wrong = await service.request('GET', '/api/v1/audit_log?cursor=abc', {
      headers: as(reader.key, fresh),
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0].path).toBe('cursor');
    // The rolled key, in its overlap, still holds only payments:read.
    const unread = await service.request('GET', '/api/v1/audit_log', { headers: as(made.body.key, fresh) });
    expect(unread.status).toBe(403);
    expect(unread.body.errors).toEqual([{ path: 'scope', message: 'audit:read is required' }]);
  });
});
