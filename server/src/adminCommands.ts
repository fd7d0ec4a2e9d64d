/** Administrative commands, run by the CLI directly or through a running server's admin socket. */

import { Uuid } from '@checkout/core';
import { createApiKey, type Db, listApiKeys, revokeApiKey } from '@checkout/db';
import { isAddress } from 'viem';

/** One administrative command. */
export type AdminCommand =
  | { command: 'api-keys.create'; address: string; label?: string; mode?: string }
  | { command: 'api-keys.list' }
  | { command: 'api-keys.revoke'; id: string };

/** Throws, in words, when an argument of `cmd` is malformed (before any database is opened). */
export function checkAdminCommand(cmd: AdminCommand): void {
  if (cmd.command === 'api-keys.create') {
    if (typeof cmd.address !== 'string' || !isAddress(cmd.address, { strict: false })) {
      throw new Error('--address must be a valid EVM address');
    }
    if (cmd.mode !== undefined && cmd.mode !== 'live' && cmd.mode !== 'test') {
      throw new Error('--mode must be live or test');
    }
  }
  if (cmd.command === 'api-keys.revoke' && !Uuid.safeParse(cmd.id).success) {
    throw new Error(
      `${JSON.stringify(cmd.id)} is not an API key id: ids are UUIDs, as api-keys list shows them`,
    );
  }
}

/** Runs a command against an open database. */
export async function runAdminCommand(db: Db, cmd: AdminCommand): Promise<unknown> {
  checkAdminCommand(cmd);
  switch (cmd.command) {
    case 'api-keys.create':
      return createApiKey(db.kysely, {
        address: cmd.address,
        label: cmd.label ?? null,
        mode: cmd.mode === 'test' ? 'test' : 'live',
      });
    case 'api-keys.list':
      return (await listApiKeys(db.kysely)).map((k) => ({
        ...k,
        created_at: k.created_at.toISOString(),
        last_used_at: k.last_used_at?.toISOString() ?? null,
        expires_at: k.expires_at?.toISOString() ?? null,
        revoked_at: k.revoked_at?.toISOString() ?? null,
      }));
    case 'api-keys.revoke':
      return { revoked: await revokeApiKey(db.kysely, cmd.id) };
    default:
      throw new Error(`unknown command ${(cmd as { command?: unknown }).command}`);
  }
}
