/** Table types of the console's sign-in: nonces, sessions and team members. */
import type { Selectable } from 'kysely';
import type { Timestamp } from './columnTypes.ts';

/** A Sign-In with Ethereum nonce handed out and not used yet; using it deletes it. */
export interface ConsoleNoncesTable {
  nonce: string;
  expires_at: Timestamp;
}

/** A signed-in console member: the token itself is never stored, only its SHA-256. */
export interface ConsoleSessionsTable {
  id: string;
  token_hash: string;
  merchant_id: string;
  /** EIP-55 checksummed: the wallet that signed in. */
  address: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** The roles a merchant gives an invited wallet (its receiving wallets are always `owner`). */
export type TeamMemberRole = 'admin' | 'support' | 'viewer';

/** A wallet a merchant invited to its console. */
export interface TeamMembersTable {
  merchant_id: string;
  /** EIP-55 checksummed. */
  address: string;
  role: TeamMemberRole;
  /** Who added it: a wallet address, or `api_key:` and the key's id. */
  added_by: string;
  created_at: Timestamp;
}

export type TeamMemberRow = Selectable<TeamMembersTable>;

export interface ConsoleTables {
  console_nonces: ConsoleNoncesTable;
  console_sessions: ConsoleSessionsTable;
  team_members: TeamMembersTable;
}
