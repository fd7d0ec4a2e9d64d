/** Area B users, their KYC sessions and state, and the account webhook endpoint. */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type {
  AccountWebhookEndpointRow,
  KycSessionRow,
  StoredKyc,
  UserRow,
  UsersTable,
} from '../usersSchema.ts';
import { pageTokenHash } from './refunds.ts';

/** A new user row; the KYC version starts at 0. */
export type NewUserRow = Omit<
  UsersTable,
  'kyc' | 'kyc_version' | 'kyc_status_message' | 'created_at' | 'updated_at'
> & { kyc: StoredKyc };

/** Inserts a user. */
export async function insertUser(db: Kysely<Database>, row: NewUserRow): Promise<UserRow> {
  const now = new Date();
  return db
    .insertInto('users')
    .values({ ...row, kyc: JSON.stringify(row.kyc), created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A user of the account, or undefined (absent or another account's). */
export async function findUser(
  db: Kysely<Database>,
  merchantId: string,
  id: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', id)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
}

/** A user by id, unscoped (for the KYC workflow). */
export async function findUserById(db: Kysely<Database>, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Every user of the account, oldest first (the API documents no paging). */
export async function listUsers(db: Kysely<Database>, merchantId: string): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * Writes KYC state `version` (the previous one plus 1). Returns the row when this call or an earlier
 * attempt of it wrote that version, so a retried activity neither skips nor repeats a change.
 */
export async function writeUserKyc(
  db: Kysely<Database>,
  userId: string,
  version: number,
  kyc: StoredKyc,
): Promise<UserRow | undefined> {
  const updated = await db
    .updateTable('users')
    .set({ kyc: JSON.stringify(kyc), kyc_version: version, kyc_status_message: null, updated_at: new Date() })
    .where('id', '=', userId)
    .where('kyc_version', '=', version - 1)
    .returningAll()
    .executeTakeFirst();
  if (updated) return updated;
  const current = await findUserById(db, userId);
  return current && current.kyc_version >= version ? current : undefined;
}

/** Notes why a KYC step could not be applied; the stored state itself is left as it was. */
export async function writeUserKycStatusMessage(
  db: Kysely<Database>,
  userId: string,
  message: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ kyc_status_message: message, updated_at: new Date() })
    .where('id', '=', userId)
    .execute();
}

/** Records a KYC session opened with the provider; of its page token only the hash is stored. */
export async function insertKycSession(
  db: Kysely<Database>,
  row: Omit<KycSessionRow, 'created_at' | 'opened_at' | 'submitted_at' | 'token_hash'> & { token: string },
): Promise<KycSessionRow> {
  const { token, ...rest } = row;
  return db
    .insertInto('kyc_sessions')
    .values({ ...rest, token_hash: pageTokenHash(token), created_at: new Date() })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The session whose page token is `token`, or undefined. */
export async function findKycSessionByToken(
  db: Kysely<Database>,
  token: string,
): Promise<KycSessionRow | undefined> {
  return db
    .selectFrom('kyc_sessions')
    .selectAll()
    .where('token_hash', '=', pageTokenHash(token))
    .executeTakeFirst();
}

/** Marks a session opened or submitted (first time only); true when this call set it. */
export async function markKycSession(
  db: Kysely<Database>,
  id: string,
  step: 'opened_at' | 'submitted_at',
): Promise<boolean> {
  const result = await db
    .updateTable('kyc_sessions')
    .set({ [step]: new Date() })
    .where('id', '=', id)
    .where(step, 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The account's webhook endpoint, or undefined. */
export async function findAccountWebhookEndpoint(
  db: Kysely<Database>,
  merchantId: string,
): Promise<AccountWebhookEndpointRow | undefined> {
  return db
    .selectFrom('account_webhook_endpoints')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
}

/** Sets (or replaces) the account's webhook endpoint. */
export async function putAccountWebhookEndpoint(
  db: Kysely<Database>,
  merchantId: string,
  url: string,
): Promise<AccountWebhookEndpointRow> {
  const now = new Date();
  return db
    .insertInto('account_webhook_endpoints')
    .values({ merchant_id: merchantId, url, created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc.column('merchant_id').doUpdateSet((eb) => ({ url: eb.ref('excluded.url'), updated_at: now })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Removes the account's webhook endpoint; true when there was one. */
export async function deleteAccountWebhookEndpoint(
  db: Kysely<Database>,
  merchantId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('account_webhook_endpoints')
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
