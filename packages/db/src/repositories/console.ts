/** The console's sign-in: single-use nonces and sessions stored by the hash of their token. */
import { createHash } from 'node:crypto';
import type { Role } from '@checkout/core';
import { type Kysely, sql } from 'kysely';
import { getAddress } from 'viem';
import type { Database } from '../schema.ts';

/** SHA-256 of a session token, hex: tokens are 256-bit random secrets, so a fast hash is enough. */
export function hashConsoleToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Stores a nonce handed out until `expiresAt`, and forgets the nonces that expired unused. */
export async function storeConsoleNonce(db: Kysely<Database>, nonce: string, expiresAt: Date): Promise<void> {
  await db.deleteFrom('console_nonces').where('expires_at', '<', new Date()).execute();
  await db.insertInto('console_nonces').values({ nonce, expires_at: expiresAt }).execute();
}

/**
 * Uses a nonce: deletes it, so that no second sign-in can use it. `unknown` when it was never handed out or
 * is used already, `expired` when its time passed, else `taken`.
 */
export async function takeConsoleNonce(
  db: Kysely<Database>,
  nonce: string,
  now: Date,
): Promise<'taken' | 'unknown' | 'expired'> {
  const row = await db
    .deleteFrom('console_nonces')
    .where('nonce', '=', nonce)
    .returning('expires_at')
    .executeTakeFirst();
  if (!row) return 'unknown';
  return row.expires_at.getTime() > now.getTime() ? 'taken' : 'expired';
}

/** A wallet's place in a merchant's console: `owner` (a receiving wallet of it) or an invited role. */
export interface ConsoleMembership {
  merchantId: string;
  role: Role;
}

/** Every merchant whose console `address` may sign in to, with its role there. */
export async function consoleMembershipsOf(
  db: Kysely<Database>,
  address: string,
): Promise<ConsoleMembership[]> {
  const checksummed = getAddress(address);
  const owned = await db
    .selectFrom('merchant_addresses')
    .select('merchant_id')
    .where('address', '=', checksummed)
    .execute();
  const invited = await db
    .selectFrom('team_members')
    .select(['merchant_id', 'role'])
    .where('address', '=', checksummed)
    .execute();
  return [
    ...owned.map((r) => ({ merchantId: r.merchant_id, role: 'owner' as const })),
    ...invited
      .filter((r) => !owned.some((o) => o.merchant_id === r.merchant_id))
      .map((r) => ({ merchantId: r.merchant_id, role: r.role })),
  ];
}

/** The merchant's receiving wallets (checksummed), oldest first: what a member's X-ADDRESS may name. */
export async function merchantWalletAddresses(db: Kysely<Database>, merchantId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('merchant_addresses')
    .select('address')
    .where('merchant_id', '=', merchantId)
    .orderBy('created_at')
    .orderBy('address')
    .execute();
  return rows.map((r) => r.address);
}

/**
 * Opens a session for the member (the caller keeps the token; only its hash is stored), and forgets the
 * sessions that expired.
 */
export async function createConsoleSession(
  db: Kysely<Database>,
  input: { id: string; token: string; merchantId: string; address: string; expiresAt: Date },
): Promise<void> {
  await db.deleteFrom('console_sessions').where('expires_at', '<=', new Date()).execute();
  await db
    .insertInto('console_sessions')
    .values({
      id: input.id,
      token_hash: hashConsoleToken(input.token),
      merchant_id: input.merchantId,
      address: getAddress(input.address),
      created_at: new Date(),
      expires_at: input.expiresAt,
    })
    .execute();
}

/** A session still open, with the role its wallet holds now. */
export interface OpenConsoleSession {
  id: string;
  merchantId: string;
  address: string;
  role: Role;
  expiresAt: Date;
}

/**
 * The session of `token` when it has not expired and its wallet still belongs to the merchant (a receiving
 * wallet, or a team member not removed), with the role it holds now; else undefined. One query.
 */
export async function findOpenConsoleSession(
  db: Kysely<Database>,
  token: string,
  now: Date,
): Promise<OpenConsoleSession | undefined> {
  const row = await db
    .selectFrom('console_sessions as s')
    .leftJoin('merchant_addresses as w', (j) =>
      j.onRef('w.merchant_id', '=', 's.merchant_id').onRef('w.address', '=', 's.address'),
    )
    .leftJoin('team_members as m', (j) =>
      j.onRef('m.merchant_id', '=', 's.merchant_id').onRef('m.address', '=', 's.address'),
    )
    .select([
      's.id',
      's.merchant_id',
      's.address',
      's.expires_at',
      sql<Role | null>`case when w.id is not null then 'owner' else m.role end`.as('role'),
    ])
    .where('s.token_hash', '=', hashConsoleToken(token))
    .where('s.expires_at', '>', now)
    .executeTakeFirst();
  if (!row?.role) return undefined;
  return {
    id: row.id,
    merchantId: row.merchant_id,
    address: row.address,
    role: row.role,
    expiresAt: row.expires_at,
  };
}

/** Closes the session of `token` (signing out); whether one was open. */
export async function deleteConsoleSession(db: Kysely<Database>, token: string): Promise<boolean> {
  const result = await db
    .deleteFrom('console_sessions')
    .where('token_hash', '=', hashConsoleToken(token))
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
