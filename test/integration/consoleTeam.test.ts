/**
 * The console's team through HTTP: the receiving wallet (owner) invites wallets with a role and removes them;
 * a removed member's open session stops at once; a viewer changes nothing; an admin cannot manage the team;
 * a member of one merchant never reaches another's wallet or records.
 */
import { createApiKey } from '@checkout/db';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleSession, signInToConsole } from '../support/console.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestService } from '../support/service.ts';

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

describe.skipIf(databaseUnavailable())('console team', () => {
  let service: TestService;
  const ownerA = newAccount();
  const ownerB = newAccount();
  let merchantA: string;
  let keyA: string;
  let owner: ConsoleSession;

  beforeAll(async () => {
    service = await startTestService({ temporal: false });
    const a = await createApiKey(service.deps.db.kysely, { address: ownerA.address });
    merchantA = a.merchantId;
    keyA = a.key;
    await createApiKey(service.deps.db.kysely, { address: ownerB.address });
    owner = await signInToConsole(service, ownerA);
  });
  afterAll(async () => {
    await service?.stop();
  });

  const invite = (by: ConsoleSession, address: string, role: string) =>
    service.request('POST', '/api/v1/team_members', { headers: by.headers(true), json: { address, role } });
  const remove = (by: ConsoleSession, address: string) =>
    service.request('DELETE', `/api/v1/team_members/${address}`, { headers: by.headers(true) });

  it('lists the receiving wallet as owner, and the wallets it invites with their role', async () => {
    const member = newAccount();
    const added = await invite(owner, member.address.toLowerCase(), 'support');
    expect(added.status, added.text).toBe(200);
    expect(added.body.team_member).toMatchObject({
      address: member.address,
      role: 'support',
      added_by: ownerA.address,
    });
    const promoted = await invite(owner, member.address, 'admin');
    expect(promoted.body.team_member.role).toBe('admin');

    const listed = await service.request('GET', '/api/v1/team_members', { headers: owner.headers() });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.team_members[0]).toMatchObject({
      address: ownerA.address,
      role: 'owner',
      added_by: null,
    });
    expect(listed.body.team_members).toContainEqual(
      expect.objectContaining({ address: member.address, role: 'admin' }),
    );
    const byKey = await service.request('GET', '/api/v1/team_members', {
      headers: { authorization: `Bearer ${keyA}` },
    });
    expect(byKey.body).toEqual(listed.body);
  });

  it('signs a member in with its role, acting on the merchant’s wallets, not its own', async () => {
    const member = newAccount();
    await invite(owner, member.address, 'support');
    const session = await signInToConsole(service, member);
    const who = await service.request('GET', '/api/v1/console/session', { headers: session.headers() });
    expect(who.body).toMatchObject({
      wallet: member.address,
      merchant_id: merchantA,
      role: 'support',
      merchant_wallets: [ownerA.address],
    });
    const listed = await service.request('GET', '/api/v1/products', {
      headers: { ...session.headers(), 'x-address': who.body.merchant_wallets[0] },
    });
    expect(listed.status, listed.text).toBe(200);
    const own = await service.request('GET', '/api/v1/products', {
      headers: { ...session.headers(), 'x-address': member.address },
    });
    expect(own.status, own.text).toBe(403);
  });

  it("ends a removed member's open session at once", async () => {
    const member = newAccount();
    await invite(owner, member.address, 'admin');
    const session = await signInToConsole(service, member);
    const headers = { ...session.headers(), 'x-address': ownerA.address };
    expect((await service.request('GET', '/api/v1/products', { headers })).status).toBe(200);
    const removed = await remove(owner, member.address);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.team_member).toMatchObject({ address: member.address, role: 'admin' });
    const after = await service.request('GET', '/api/v1/products', { headers });
    expect(after.status, after.text).toBe(401);
    expect((await remove(owner, member.address)).status).toBe(404);

    const log = await service.request('GET', '/api/v1/audit_log', { headers: owner.headers() });
    const lines = log.body.audit_events.filter(
      (e: { subject_id: string }) => e.subject_id === member.address,
    );
    expect(lines).toEqual([
      expect.objectContaining({
        action: 'member.removed',
        actor: { kind: 'wallet', address: ownerA.address },
        detail: { role: 'admin' },
      }),
      expect.objectContaining({ action: 'member.added', detail: { role: 'admin' } }),
    ]);
  });

  it('keeps the receiving wallet the owner: it can be neither removed nor given a role', async () => {
    const removed = await remove(owner, ownerA.address);
    expect(removed.status, removed.text).toBe(409);
    const invited = await invite(owner, ownerA.address, 'viewer');
    expect(invited.status, invited.text).toBe(422);
    expect(invited.body.errors).toEqual([expect.objectContaining({ path: 'address' })]);
  });

  it('refuses a viewer every write, an admin the team, support the products', async () => {
    const viewer = newAccount();
    await invite(owner, viewer.address, 'viewer');
    const viewing = await signInToConsole(service, viewer);
    const wallet = { 'x-address': ownerA.address };
    expect(
      (await service.request('GET', '/api/v1/products', { headers: { ...viewing.headers(), ...wallet } }))
        .status,
    ).toBe(200);
    const write = await service.request('POST', '/api/v1/products', {
      headers: { ...viewing.headers(true), ...wallet },
      json: product('Viewer coffee'),
    });
    expect(write.status, write.text).toBe(403);
    expect(write.body).toMatchObject({
      error_code: 'insufficient_scope',
      errors: [{ path: 'scope', message: 'products:write is required' }],
    });
    expect((await invite(viewing, newAccount().address, 'viewer')).status).toBe(403);
    // A viewer still signs out.
    expect(
      (await service.request('DELETE', '/api/v1/console/session', { headers: viewing.headers(true) })).status,
    ).toBe(204);

    const admin = newAccount();
    await invite(owner, admin.address, 'admin');
    const adminSession = await signInToConsole(service, admin);
    const refused = await invite(adminSession, newAccount().address, 'viewer');
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.errors).toEqual([{ path: 'scope', message: 'team:write is required' }]);
    expect((await remove(adminSession, viewer.address)).status).toBe(403);
    const made = await service.request('POST', '/api/v1/products', {
      headers: { ...adminSession.headers(true), ...wallet },
      json: product('Admin coffee'),
    });
    expect(made.status, made.text).toBe(200);
    const support = newAccount();
    await invite(owner, support.address, 'support');
    const supportSession = await signInToConsole(service, support);
    const notTheirs = await service.request('POST', '/api/v1/products', {
      headers: { ...supportSession.headers(true), ...wallet },
      json: product('Support coffee'),
    });
    expect(notTheirs.status, notTheirs.text).toBe(403);
    expect(notTheirs.body).toMatchObject({
      error_code: 'insufficient_scope',
      errors: [{ path: 'scope', message: 'products:write is required' }],
    });
    const refunds = await service.request('GET', '/api/v1/refunds', {
      headers: { ...supportSession.headers(), ...wallet },
    });
    expect(refunds.status, refunds.text).toBe(200);
  });

  it("never lets a member of one merchant reach another's wallet, team or records", async () => {
    const memberA = newAccount();
    await invite(owner, memberA.address, 'admin');
    const session = await signInToConsole(service, memberA);
    const ownerBSession = await signInToConsole(service, ownerB);
    const madeB = await service.request('POST', '/api/v1/products', {
      headers: { ...ownerBSession.headers(true), 'x-address': ownerB.address },
      json: product('B only'),
    });
    expect(madeB.status, madeB.text).toBe(200);

    for (const s of [session, owner]) {
      const other = await service.request('GET', '/api/v1/products', {
        headers: { ...s.headers(), 'x-address': ownerB.address },
      });
      expect(other.status, other.text).toBe(403);
      expect(other.body.errors).toEqual([expect.objectContaining({ path: 'X-ADDRESS' })]);
      const byId = await service.request('PATCH', `/api/v1/products/${madeB.body.product.id}`, {
        headers: { ...s.headers(true), 'x-address': ownerA.address },
        json: { product: { active: false } },
      });
      expect(byId.status, byId.text).toBe(404);
      const team = await service.request('GET', '/api/v1/team_members', { headers: s.headers() });
      expect(team.body.team_members.map((m: { address: string }) => m.address)).not.toContain(ownerB.address);
      expect((await remove(s, ownerB.address)).status).not.toBe(200);
    }
    const listedB = await service.request('GET', '/api/v1/products', {
      headers: { ...ownerBSession.headers(), 'x-address': ownerB.address },
    });
    expect(listedB.body.products).toEqual([expect.objectContaining({ name: 'B only', active: true })]);
  });

  it('asks a wallet in two consoles which one it signs in to', async () => {
    const both = newAccount();
    await invite(owner, both.address, 'viewer');
    const ownerBSession = await signInToConsole(service, ownerB);
    await invite(ownerBSession, both.address, 'support');
    await expect(signInToConsole(service, both)).rejects.toThrow(/merchant_id/);
    const inA = await signInToConsole(service, both, merchantA);
    const who = await service.request('GET', '/api/v1/console/session', { headers: inA.headers() });
    expect(who.body).toMatchObject({ merchant_id: merchantA, role: 'viewer' });
  });
});
