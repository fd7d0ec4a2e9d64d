/**
 * Signing in to the console with the receiving wallet (Sign-In with Ethereum), through HTTP with wallets of
 * viem's signing a real EIP-4361 message: the session cookie then works on the merchant routes as an API key
 * does, and every attack on the sign-in is refused.
 */
import { createApiKey } from '@checkout/db';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postSignIn, sessionOf, signedMessage, signInToConsole } from '../support/console.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestResponse, type TestService } from '../support/service.ts';

const newAccount = () => privateKeyToAccount(generatePrivateKey());
const product = (name: string) => ({
  product: {
    name,
    email: 'shop@example.com',
    active: true,
    token: {
      blockchain: 'ethereum',
      network: 'mainnet',
      address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    },
  },
});

function expectRefused(res: TestResponse, status: number, path: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  expect(res.headers.get('set-cookie')).toBeNull();
}

describe.skipIf(databaseUnavailable())('console sign-in with the receiving wallet', () => {
  let service: TestService;
  const owner = newAccount();

  beforeAll(async () => {
    service = await startTestService({
      temporal: false,
      env: { PUBLIC_BASE_URL: 'https://pay.example.com' },
    });
    await createApiKey(service.deps.db.kysely, { address: owner.address });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('signs the receiving wallet in as owner; the cookie works on the merchant routes', async () => {
    const res = await postSignIn(service, await signedMessage(service, owner));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      wallet: owner.address,
      role: 'owner',
      merchant_wallets: [owner.address],
      csrf_token: expect.any(String),
    });
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^console_session=[A-Za-z0-9_-]{43}; Path=\/api\/v1; Expires=/);
    expect(cookie).toContain('; HttpOnly; SameSite=Strict; Secure');
    const hours = (Date.parse(res.body.expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);

    const session = sessionOf(res);
    const whoAmI = await service.request('GET', '/api/v1/console/session', { headers: session.headers() });
    expect(whoAmI.body).toEqual(res.body);
    const wallet = { 'x-address': owner.address };
    const made = await service.request('POST', '/api/v1/products', {
      headers: { ...session.headers(true), ...wallet },
      json: product('Signed-in coffee'),
    });
    expect(made.status, made.text).toBe(200);
    const listed = await service.request('GET', '/api/v1/products', {
      headers: { ...session.headers(), ...wallet },
    });
    expect(listed.body.products.map((p: { name: string }) => p.name)).toContain('Signed-in coffee');
  });

  it('refuses a replayed nonce', async () => {
    const signed = await signedMessage(service, owner);
    expect((await postSignIn(service, signed)).status).toBe(200);
    expectRefused(await postSignIn(service, signed), 401, 'message.nonce');
  });

  it('refuses a nonce the service never handed out', async () => {
    expectRefused(
      await postSignIn(service, await signedMessage(service, owner, { nonce: 'a1b2c3d4e5f6' })),
      401,
      'message.nonce',
    );
  });

  it('refuses an expired nonce', async () => {
    const signed = await signedMessage(service, owner);
    const nonce = /Nonce: (\w+)/.exec(signed.message)![1]!;
    await service.deps.db.kysely
      .updateTable('console_nonces')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('nonce', '=', nonce)
      .execute();
    const res = await postSignIn(service, signed);
    expectRefused(res, 401, 'message.nonce');
    expect(res.body.message).toContain('expired');
  });

  it('refuses a message for another domain or another URI', async () => {
    expectRefused(
      await postSignIn(service, await signedMessage(service, owner, { domain: 'evil.example' })),
      401,
      'message.domain',
    );
    expectRefused(
      await postSignIn(service, await signedMessage(service, owner, { uri: 'https://evil.example/console' })),
      401,
      'message.uri',
    );
    expectRefused(
      await postSignIn(
        service,
        await signedMessage(service, owner, { uri: 'https://pay.example.com.evil.example/' }),
      ),
      401,
      'message.uri',
    );
  });

  it('refuses a message signed by another wallet than the one it names', async () => {
    const signed = await signedMessage(service, newAccount(), { address: owner.address });
    expectRefused(await postSignIn(service, signed), 401, 'signature');
  });

  it('refuses a wallet that is no merchant’s', async () => {
    expectRefused(
      await postSignIn(service, await signedMessage(service, newAccount())),
      403,
      'message.address',
    );
  });

  it('honours the message’s expiration time', async () => {
    const past = await signedMessage(service, owner, { expirationTime: new Date(Date.now() - 1000) });
    expectRefused(await postSignIn(service, past), 401, 'message.expirationTime');
    const soon = new Date(Date.now() + 60 * 60_000);
    const res = await postSignIn(service, await signedMessage(service, owner, { expirationTime: soon }));
    expect(res.status, res.text).toBe(200);
    expect(Date.parse(res.body.expires_at)).toBe(soon.getTime());
  });

  it('refuses a write with the cookie and without the CSRF proof', async () => {
    const session = await signInToConsole(service, owner);
    const wallet = { 'x-address': owner.address };
    const missing = await service.request('POST', '/api/v1/products', {
      headers: { ...session.headers(), ...wallet },
      json: product('Forged'),
    });
    expectRefused(missing, 403, 'X-CSRF-Token');
    const wrong = await service.request('POST', '/api/v1/products', {
      headers: { ...session.headers(), ...wallet, 'x-csrf-token': `${session.csrf.slice(0, -2)}AA` },
      json: product('Forged'),
    });
    expectRefused(wrong, 403, 'X-CSRF-Token');
    const signOut = await service.request('DELETE', '/api/v1/console/session', {
      headers: session.headers(),
    });
    expectRefused(signOut, 403, 'X-CSRF-Token');
  });

  it('refuses an expired session and a signed-out one', async () => {
    const expired = await signInToConsole(service, owner);
    await service.deps.db.kysely
      .updateTable('console_sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(
        'token_hash',
        '=',
        (await import('@checkout/db')).hashConsoleToken(expired.cookie.split('=')[1]!),
      )
      .execute();
    const res = await service.request('GET', '/api/v1/console/session', { headers: expired.headers() });
    expect(res.status, res.text).toBe(401);

    const session = await signInToConsole(service, owner);
    const out = await service.request('DELETE', '/api/v1/console/session', {
      headers: session.headers(true),
    });
    expect(out.status, out.text).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(
      /^console_session=; Path=\/api\/v1; Expires=Thu, 01 Jan 1970/,
    );
    const after = await service.request('GET', '/api/v1/products', {
      headers: { ...session.headers(), 'x-address': owner.address },
    });
    expect(after.status, after.text).toBe(401);
  });

  it('works on the account routes: a key made from the console names the wallet in the audit log', async () => {
    const session = await signInToConsole(service, owner);
    const made = await service.request('POST', '/api/v1/api_keys', {
      headers: session.headers(true),
      json: { name: 'from the console', scopes: ['payments:read'] },
    });
    expect(made.status, made.text).toBe(201);
    const log = await service.request('GET', '/api/v1/audit_log', { headers: session.headers() });
    expect(log.body.audit_events[0]).toMatchObject({
      action: 'api_key.created',
      actor: { kind: 'wallet', address: owner.address },
    });
  });

  it('is not accepted by Area B, which takes API keys only', async () => {
    const session = await signInToConsole(service, owner);
    const res = await service.request('GET', '/webhook_endpoint', { headers: session.headers() });
    expect(res.status, res.text).toBe(401);
  });

  it('prefers an Authorization header to the cookie', async () => {
    const session = await signInToConsole(service, owner);
    const res = await service.request('GET', '/api/v1/products', {
      headers: { ...session.headers(), authorization: 'Bearer ck_not_a_key', 'x-address': owner.address },
    });
    expect(res.status, res.text).toBe(401);
  });
});

describe.skipIf(databaseUnavailable())('console sign-in rate limit', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({ temporal: false, env: { PUBLIC_RATE_LIMIT_PER_MINUTE: '2' } });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('counts nonces and sign-ins against the public per-client limit', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await service.request('POST', '/api/v1/console/nonce')).status);
    expect(statuses).toEqual([200, 200, 429]);
    const signIn = await service.request('POST', '/api/v1/console/session', {
      json: { message: 'x', signature: '0x00' },
    });
    expect(signIn.status, signIn.text).toBe(429);
  });
});
