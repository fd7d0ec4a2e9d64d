/** The console's sign-in (Sign-In with Ethereum, EIP-4361) and its team, as the API reads and answers them. */
import { z } from 'zod';
import { Role } from '../access.ts';
import { CheckedAddress, EvmAddress, namedObject, Timestamp, Uuid } from './common.ts';

export const ConsoleNonceResponse = namedObject('ConsoleNonce', {
  nonce: z.string().meta({ description: 'Put in the message as its Nonce; used once, valid for minutes' }),
});

/** `POST /api/v1/console/session`: an EIP-4361 message and the wallet's signature of it. */
export const ConsoleSignInRequest = namedObject('ConsoleSignInRequest', {
  message: z.string().min(1).max(4096).meta({
    description: "An EIP-4361 message whose domain and URI are the service's, with a nonce it handed out",
  }),
  signature: z
    .string()
    .regex(/^0x[0-9a-fA-F]+$/, 'must be a 0x-prefixed hex string')
    .max(2048)
    .meta({ description: 'The personal_sign signature of `message` by its address' }),
  merchant_id: Uuid.optional().meta({
    description: 'Which merchant to sign in to, when the wallet belongs to the console of more than one',
  }),
});

export const ConsoleSession = namedObject('ConsoleSession', {
  wallet: EvmAddress,
  merchant_id: Uuid,
  role: Role,
  merchant_wallets: z.array(EvmAddress).meta({
    description: "The merchant's receiving wallets, oldest first: the X-ADDRESS values the session may use",
  }),
  csrf_token: z.string().meta({
    description:
      'Send it as X-CSRF-Token with every POST, PUT, PATCH and DELETE made with the session cookie',
  }),
  expires_at: Timestamp,
});

/** A wallet of the merchant's console: a receiving wallet (`owner`, `added_by` null) or an invited one. */
const TeamMember = namedObject('TeamMember', {
  address: EvmAddress,
  role: Role,
  added_by: z
    .string()
    .nullable()
    .meta({ description: 'Who added it: a wallet address, or `api_key:` and the id of the key' }),
  created_at: Timestamp,
});

export const TeamMemberResponse = namedObject('TeamMemberResponse', { team_member: TeamMember });

export const TeamMemberList = namedObject('TeamMemberList', { team_members: z.array(TeamMember) });

/** `POST /api/v1/team_members`: invite a wallet, or give a member a new role. */
export const TeamMemberRequest = namedObject('TeamMemberRequest', {
  address: CheckedAddress,
  role: z.enum(['admin', 'support', 'viewer']),
});
