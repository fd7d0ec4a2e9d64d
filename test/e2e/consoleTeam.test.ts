/// <reference lib="dom" />
/**
 * The console's team page: the owner (the receiving wallet) adds a wallet as `support` — a mistyped EIP-55
 * address refused on its field first — and that member, signed in with its own wallet in another browser,
 * sees its role's limits (no way to manage the team, and the API refusing it too); the owner removes it after
 * confirming, and the member's open session ends at once. The receiving wallet is listed as the owner, never
 * removable. Axe finds nothing in each state.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createApiKey } from '@checkout/db';
import type { Page } from 'playwright-core';
import { isAddress } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { axeViolations, browserUnavailable, launchBrowser, type TestBrowser } from './support/browser.ts';
import { artifacts } from './support/checkoutHarness.ts';
import { consoleEnv, signIn } from './support/console.ts';
import { installTestWallet } from './support/testWallet.ts';

const axeSource = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');

async function expectAccessible(page: Page): Promise<void> {
  await page.evaluate(axeSource);
  expect(await axeViolations(page)).toEqual([]);
}

/** A request the page makes with its own session cookie (and its CSRF token on a write): status and body. */
function fromPage(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const session = await fetch('/api/v1/console/session');
      const csrf = session.ok ? ((await session.json()) as { csrf_token: string }).csrf_token : '';
      const res = await fetch(path, {
        method,
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    { method, path, body },
  );
}

/** The address with one letter's case flipped, still mixed-case: a broken EIP-55 checksum. */
function mistyped(address: string): string {
  for (let i = 2; i < address.length; i++) {
    const c = address[i]!;
    const flipped = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
    const typo = address.slice(0, i) + flipped + address.slice(i + 1);
    if (typo !== address && isAddress(typo, { strict: false }) && !isAddress(typo, { strict: true }))
      return typo;
  }
  throw new Error(`no mixed-case typo of ${address}`);
}

describe.skipIf(databaseUnavailable() || browserUnavailable())('the console team', () => {
  let service: TestService;
  let ownerBrowser: TestBrowser;
  let memberBrowser: TestBrowser;
  const ownerKey = generatePrivateKey();
  const owner = privateKeyToAddress(ownerKey);
  const memberKey = generatePrivateKey();
  const member = privateKeyToAddress(memberKey);
  let headers: Record<string, string>;

  beforeAll(async () => {
    service = await startTestService({ temporal: false, env: await consoleEnv() });
    ownerBrowser = await launchBrowser();
    memberBrowser = await launchBrowser();
    const key = await createApiKey(service.deps.db.kysely, { address: owner });
    headers = { authorization: `Bearer ${key.key}` };
  });
  afterAll(async () => {
    await memberBrowser?.close();
    await ownerBrowser?.close();
    await service?.stop();
  });

  const team = async () => {
    const res = await service.request('GET', '/api/v1/team_members', { headers });
    expect(res.status, res.text).toBe(200);
    return (res.body.team_members as Array<{ address: string; role: string }>).map((m) => [
      m.address,
      m.role,
    ]);
  };

  it('adds a member who sees its role’s limits, then removes it and ends its open session', async () => {
    const ownerPage = await ownerBrowser.context.newPage();
    const memberPage = await memberBrowser.context.newPage();
    try {
      await installTestWallet(ownerPage, { privateKey: ownerKey, rpcUrl: 'http://127.0.0.1:9', chainId: 1 });
      await ownerPage.goto(`${service.url}/console`);
      await signIn(ownerPage, owner);
      await ownerPage.getByRole('navigation').getByRole('link', { name: 'Team' }).click();
      const rows = ownerPage.locator('console-team tbody tr');
      const ownerRow = rows.filter({ hasText: owner });
      await ownerRow.getByText('Receiving wallet: always the owner').waitFor();
      expect(await ownerRow.getByRole('button').count()).toBe(0);
      await expectAccessible(ownerPage);

      // A mistyped checksum: refused on its field, nobody added.
      const form = ownerPage.getByRole('form', { name: 'Add member' });
      const address = form.getByRole('textbox', { name: /Wallet address/ });
      await address.fill(mistyped(member));
      await form.getByLabel('Role').selectOption('support');
      await form.getByRole('button', { name: 'Add member' }).click();
      await form.getByText('has a wrong EIP-55 checksum').waitFor();
      expect(await address.getAttribute('aria-invalid')).toBe('true');
      await expectAccessible(ownerPage);
      expect(await team()).toEqual([[owner, 'owner']]);

      // Written all lowercase: added, checksummed, as support.
      await address.fill(member.toLowerCase());
      await form.getByRole('button', { name: 'Add member' }).click();
      await ownerPage
        .getByRole('status')
        .filter({ hasText: `${member} added.` })
        .waitFor();
      await rows.filter({ hasText: member }).waitFor();
      expect(await address.getAttribute('aria-invalid')).toBe('false');
      expect(await team()).toEqual([
        [owner, 'owner'],
        [member, 'support'],
      ]);

      // The member signs in with its own wallet and sees what support may not do.
      await installTestWallet(memberPage, {
        privateKey: memberKey,
        rpcUrl: 'http://127.0.0.1:9',
        chainId: 1,
      });
      await memberPage.goto(`${service.url}/console/team`);
      await signIn(memberPage, member);
      await memberPage.getByText('Your role: support.').waitFor();
      await memberPage.getByText('Only owners add or remove members.').waitFor();
      await memberPage.locator('console-team tbody tr').filter({ hasText: member }).waitFor();
      expect(await memberPage.getByRole('form', { name: 'Add member' }).count()).toBe(0);
      expect(await memberPage.locator('console-team').getByRole('button').count()).toBe(0);
      await expectAccessible(memberPage);
      await memberPage.screenshot({ path: `${artifacts}console-team-support.png`, fullPage: true });
      // Its role's limits on the other pages too: support writes no product, webhook or key, so nothing there
      // offers it (the secret, a test event, a redelivery, a new or rolled key, a product or its activation).
      for (const [link, tag] of [
        ['Products', 'console-products'],
        ['Webhooks', 'console-webhooks'],
        ['API keys', 'console-keys'],
      ] as const) {
        await memberPage.getByRole('navigation').getByRole('link', { name: link }).click();
        await memberPage.locator(tag).getByRole('heading', { level: 1 }).waitFor();
        expect(await memberPage.locator(tag).getByRole('button').count()).toBe(0);
        expect(await memberPage.locator(tag).locator('form').count()).toBe(0);
        await expectAccessible(memberPage);
      }
      // Not only hidden: the API refuses the member's write with its own session, naming the scope.
      const refused = await fromPage(memberPage, 'POST', '/api/v1/team_members', {
        address: privateKeyToAddress(generatePrivateKey()),
        role: 'admin',
      });
      expect(refused.status).toBe(403);
      expect(JSON.stringify(refused.body)).toContain('team:write');
      expect((await fromPage(memberPage, 'GET', '/api/v1/console/session')).status).toBe(200);

      // The owner removes it, after confirming; its open session ends at once.
      const memberRow = rows.filter({ hasText: member });
      await memberRow.getByRole('button', { name: `Remove ${member}` }).click();
      const confirm = memberRow.getByRole('group', {
        name: `Remove ${member}? Their open sessions end at once.`,
      });
      await expectAccessible(ownerPage);
      await ownerPage.screenshot({ path: `${artifacts}console-team-remove.png`, fullPage: true });
      await confirm.getByRole('button', { name: 'Keep' }).click();
      await memberRow.getByRole('button', { name: `Remove ${member}` }).waitFor();
      expect(await team()).toHaveLength(2);
      await memberRow.getByRole('button', { name: `Remove ${member}` }).click();
      await confirm.getByRole('button', { name: 'Yes, remove' }).click();
      await ownerPage
        .getByRole('status')
        .filter({ hasText: `${member} removed.` })
        .waitFor();
      await memberRow.waitFor({ state: 'detached' });
      expect(await team()).toEqual([[owner, 'owner']]);

      expect((await fromPage(memberPage, 'GET', '/api/v1/console/session')).status).toBe(401);
      await memberPage.reload();
      await memberPage.getByRole('button', { name: 'Sign in with wallet' }).waitFor();
    } finally {
      await memberPage.close();
      await ownerPage.close();
    }
  });
});
