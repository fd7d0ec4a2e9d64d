import { describe, expect, it } from 'vitest';
import { openTestDatabase, testDatabaseUnavailable } from '../testDatabase.ts';
import {
  consoleMembershipsOf,
  createConsoleSession,
  findOpenConsoleSession,
  storeConsoleNonce,
  takeConsoleNonce,
} from './console.ts';
import { createApiKey } from './merchants.ts';
import { putTeamMember, removeTeamMember } from './team.ts';

const owner = '0x00000000000000000000000000000000000000A1';
const member = '0x00000000000000000000000000000000000000b2';
const hour = 3_600_000;

describe.skipIf(testDatabaseUnavailable())('console sign-in storage', () => {
  it('uses a nonce once, and only before it expires', async () => {
    const db = await openTestDatabase({ poolSize: 1 });
    try {
      const now = new Date();
      await storeConsoleNonce(db.kysely, 'fresh0001', new Date(now.getTime() + hour));
      await storeConsoleNonce(db.kysely, 'stale0001', new Date(now.getTime() + 1000));
      expect(await takeConsoleNonce(db.kysely, 'fresh0001', now)).toBe('taken');
      expect(await takeConsoleNonce(db.kysely, 'fresh0001', now)).toBe('unknown');
      expect(await takeConsoleNonce(db.kysely, 'stale0001', new Date(now.getTime() + 2000))).toBe('expired');
      expect(await takeConsoleNonce(db.kysely, 'never0001', now)).toBe('unknown');
    } finally {
      await db.close();
    }
  });

  it('finds a session with the role its wallet holds now, until it expires or the wallet leaves the team', async () => {
    const db = await openTestDatabase({ poolSize: 1 });
    try {
      const { merchantId } = await createApiKey(db.kysely, { address: owner });
      await putTeamMember(db.kysely, { merchantId, address: member, role: 'viewer', addedBy: owner });
      expect(await consoleMembershipsOf(db.kysely, member)).toEqual([{ merchantId, role: 'viewer' }]);
      expect(await consoleMembershipsOf(db.kysely, owner.toLowerCase())).toEqual([
        { merchantId, role: 'owner' },
      ]);

      const now = new Date();
      const open = (id: string, token: string, address: string, expiresIn = hour) =>
        createConsoleSession(db.kysely, {
          id,
          token,
          merchantId,
          address,
          expiresAt: new Date(now.getTime() + expiresIn),
        });
      await open('00000000-0000-4000-8000-000000000001', 'owner-token', owner);
      await open('00000000-0000-4000-8000-000000000002', 'member-token', member);
      expect(await findOpenConsoleSession(db.kysely, 'owner-token', now)).toMatchObject({ role: 'owner' });
      expect(await findOpenConsoleSession(db.kysely, 'member-token', now)).toMatchObject({ role: 'viewer' });
      expect(
        await findOpenConsoleSession(db.kysely, 'owner-token', new Date(now.getTime() + hour)),
      ).toBeUndefined();

      await putTeamMember(db.kysely, { merchantId, address: member, role: 'support', addedBy: owner });
      expect(await findOpenConsoleSession(db.kysely, 'member-token', now)).toMatchObject({ role: 'support' });
      expect(await removeTeamMember(db.kysely, merchantId, member)).toMatchObject({ role: 'support' });
      expect(await findOpenConsoleSession(db.kysely, 'member-token', now)).toBeUndefined();
      const left = await db.kysely.selectFrom('console_sessions').select('address').execute();
      expect(left.map((r) => r.address)).toEqual([owner]);
    } finally {
      await db.close();
    }
  });
});
