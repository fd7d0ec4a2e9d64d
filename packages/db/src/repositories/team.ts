/** A merchant's console team: its receiving wallets (owners) and the wallets it invited, each with a role. */
import type { Role } from '@checkout/core';
import type { Kysely } from 'kysely';
import { getAddress } from 'viem';
import type { TeamMemberRole, TeamMemberRow } from '../consoleSchema.ts';
import { inTransaction } from '../inTransaction.ts';
import type { Database, MerchantAddressRow } from '../schema.ts';

/** One member as the team list shows it; an owner has no `addedBy`. */
export interface TeamMember {
  address: string;
  role: Role;
  addedBy: string | null;
  createdAt: Date;
}

const memberOf = (row: TeamMemberRow): TeamMember => ({
  address: row.address,
  role: row.role,
  addedBy: row.added_by,
  createdAt: row.created_at,
});

/** The merchant's team: its receiving wallets first (owners), then the invited wallets, oldest first. */
export async function listTeamMembers(db: Kysely<Database>, merchantId: string): Promise<TeamMember[]> {
  const owners = await db
    .selectFrom('merchant_addresses')
    .select(['address', 'created_at'])
    .where('merchant_id', '=', merchantId)
    .orderBy('created_at')
    .orderBy('address')
    .execute();
  const invited = await db
    .selectFrom('team_members')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .orderBy('created_at')
    .orderBy('address')
    .execute();
  return [
    ...owners.map((o) => ({
      address: o.address,
      role: 'owner' as const,
      addedBy: null,
      createdAt: o.created_at,
    })),
    ...invited.map(memberOf),
  ];
}

/** The merchant's receiving wallet `address` (any letter case), or undefined when it is not one of them. */
export async function findWalletOfMerchant(
  db: Kysely<Database>,
  merchantId: string,
  address: string,
): Promise<MerchantAddressRow | undefined> {
  return db
    .selectFrom('merchant_addresses')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .where('address', '=', getAddress(address))
    .executeTakeFirst();
}

/** A receiving wallet is always its merchant's owner: it is neither given a role nor removed. */
type ReceivingWallet = 'receiving_wallet';

/**
 * Adds a wallet to the team, or gives a member already there the new role; the member as stored, or
 * `receiving_wallet` for one of the merchant's receiving wallets (left as it is).
 */
export async function putTeamMember(
  db: Kysely<Database>,
  input: { merchantId: string; address: string; role: TeamMemberRole; addedBy: string },
): Promise<TeamMember | ReceivingWallet> {
  if (await findWalletOfMerchant(db, input.merchantId, input.address)) return 'receiving_wallet';
  const row = await db
    .insertInto('team_members')
    .values({
      merchant_id: input.merchantId,
      address: getAddress(input.address),
      role: input.role,
      added_by: input.addedBy,
      created_at: new Date(),
    })
    .onConflict((oc) =>
      oc.columns(['merchant_id', 'address']).doUpdateSet((eb) => ({ role: eb.ref('excluded.role') })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  return memberOf(row);
}

/**
 * Removes an invited wallet and closes its open sessions in the merchant's console; the member it was,
 * undefined when it was none, or `receiving_wallet` for one of the merchant's receiving wallets (kept).
 */
export async function removeTeamMember(
  db: Kysely<Database>,
  merchantId: string,
  address: string,
): Promise<TeamMember | ReceivingWallet | undefined> {
  const checksummed = getAddress(address);
  if (await findWalletOfMerchant(db, merchantId, checksummed)) return 'receiving_wallet';
  return inTransaction(db, async (trx) => {
    const removed = await trx
      .deleteFrom('team_members')
      .where('merchant_id', '=', merchantId)
      .where('address', '=', checksummed)
      .returningAll()
      .executeTakeFirst();
    await trx
      .deleteFrom('console_sessions')
      .where('merchant_id', '=', merchantId)
      .where('address', '=', checksummed)
      .execute();
    return removed && memberOf(removed);
  });
}
