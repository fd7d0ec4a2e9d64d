/**
 * Sign-In with Ethereum (EIP-4361) to the console: a nonce handed out once (`issueNonce`), then a message the
 * wallet signed (`signIn`), checked against the service's own domain and URI, the nonce, its times and the
 * signature, for a wallet of a merchant's console. Messages are read with viem's SIWE helpers. A signature
 * that is not the key's of the address is asked of the address on the chain the message names (one of the
 * service's chains): a contract wallet answers ERC-1271's `isValidSignature`, and one not deployed yet is
 * checked through its ERC-6492 wrapper (viem's `verifyMessage` on the chain's client).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ChainClients } from '@checkout/chain';
import { ApiError, type FieldError, type Role, recordInvalid } from '@checkout/core';
import type { Database } from '@checkout/db';
import {
  consoleMembershipsOf,
  createConsoleSession,
  storeConsoleNonce,
  takeConsoleNonce,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { type Hex, verifyMessage } from 'viem';
import { generateSiweNonce, parseSiweMessage, type SiweMessage, validateSiweMessage } from 'viem/siwe';
import type { Config } from './config.ts';

/** Hands out a nonce for one sign-in, valid for the configured minutes. */
export async function issueNonce(db: Kysely<Database>, config: Config): Promise<string> {
  const nonce = generateSiweNonce();
  await storeConsoleNonce(db, nonce, new Date(Date.now() + config.console.nonceMs));
  return nonce;
}

/** A session opened: the token the cookie carries (never stored) and whom it signs in. */
export interface SignedIn {
  token: string;
  wallet: string;
  merchantId: string;
  role: Role;
  expiresAt: Date;
}

const refused = (path: string, message: string) =>
  new ApiError('unauthorized', `Sign-in refused: ${path} ${message}`, { errors: [{ path, message }] });

/** The message's fields, or a 422 naming what an EIP-4361 message must have and this one lacks. */
function parsed(message: string): SiweMessage {
  const fields = parseSiweMessage(message);
  const required = ['address', 'domain', 'uri', 'version', 'chainId', 'nonce', 'issuedAt'] as const;
  const missing = required.filter((key) => fields[key] === undefined);
  if (missing.length > 0) {
    throw recordInvalid([
      { path: 'message', message: `is not an EIP-4361 message: no ${missing.join(', ')}` },
    ]);
  }
  return fields as SiweMessage;
}

/** Refuses a message not made for this service, or not valid at `now`. */
function checkFor(fields: SiweMessage, publicBaseUrl: string, now: Date): void {
  const base = new URL(publicBaseUrl);
  if (fields.domain !== base.host || (fields.scheme && `${fields.scheme}:` !== base.protocol)) {
    throw refused('message.domain', `must be ${base.host}`);
  }
  if (fields.uri !== publicBaseUrl && !fields.uri.startsWith(`${publicBaseUrl}/`)) {
    throw refused('message.uri', `must be ${publicBaseUrl} or a URL under it`);
  }
  if (fields.expirationTime && !(fields.expirationTime.getTime() > now.getTime())) {
    throw refused('message.expirationTime', 'has passed');
  }
  if (!validateSiweMessage({ message: fields, domain: base.host, time: now })) {
    throw refused('message', 'is not valid now (its version, nonce or not-before time)');
  }
}

/**
 * Refuses a signature that is not the message's address's: a key's signature is checked here; any other is
 * asked of the address on the message's chain, which must be one of the service's (a contract wallet,
 * ERC-1271 or ERC-6492).
 */
async function signedBy(chains: ChainClients, fields: SiweMessage, message: string, signature: Hex) {
  const request = { address: fields.address, message, signature };
  if (await verifyMessage(request).catch(() => false)) return;
  const chain = chains.get(fields.chainId);
  if (!chain) {
    const served = [...chains.keys()].join(', ') || 'none';
    throw refused(
      'signature',
      `is not a signature of the message by its address's key, and a contract wallet's is checked only on the service's chains (${served}), not on chain ${fields.chainId}`,
    );
  }
  if (!(await chain.client.verifyMessage(request).catch(() => false))) {
    throw refused('signature', 'is not a signature of the message by its address');
  }
}

/** Which merchant the wallet signs in to: the one asked for, or its only one. */
async function membership(db: Kysely<Database>, address: string, merchantId: string | undefined) {
  const memberships = await consoleMembershipsOf(db, address);
  const chosen = merchantId
    ? memberships.find((m) => m.merchantId === merchantId)
    : memberships.length === 1
      ? memberships[0]
      : undefined;
  if (chosen) return chosen;
  const error: FieldError = merchantId
    ? { path: 'merchant_id', message: 'is not a merchant whose console this wallet belongs to' }
    : memberships.length === 0
      ? { path: 'message.address', message: 'is neither a receiving wallet of a merchant nor a team member' }
      : {
          path: 'merchant_id',
          message: 'is required: this wallet belongs to the console of several merchants',
        };
  throw new ApiError('forbidden', `Sign-in refused: ${error.path} ${error.message}`, { errors: [error] });
}

/**
 * Opens a console session for the wallet that signed `message`: the message is the service's (domain, URI),
 * valid now (expiration, not-before), signed by its address (a key, or a contract wallet on the message's
 * chain: {@link signedBy}), with a nonce handed out, unexpired and not used
 * before (using it spends it), for a wallet of a merchant's console. The session ends after the configured
 * hours, or at the message's expiration time when that is sooner.
 */
export async function signIn(
  db: Kysely<Database>,
  config: Config,
  chains: ChainClients,
  input: { message: string; signature: string; merchant_id?: string | undefined },
): Promise<SignedIn> {
  const now = new Date();
  const fields = parsed(input.message);
  checkFor(fields, config.publicBaseUrl, now);
  await signedBy(chains, fields, input.message, input.signature as Hex);
  const nonce = await takeConsoleNonce(db, fields.nonce, now);
  if (nonce === 'unknown')
    throw refused('message.nonce', 'was not handed out by this service or is used already');
  if (nonce === 'expired') throw refused('message.nonce', 'has expired; ask for a new one');
  const member = await membership(db, fields.address, input.merchant_id);
  const longest = now.getTime() + config.console.sessionMs;
  const expiresAt = new Date(Math.min(longest, fields.expirationTime?.getTime() ?? longest));
  const token = randomBytes(32).toString('base64url');
  await createConsoleSession(db, {
    id: randomUUID(),
    token,
    merchantId: member.merchantId,
    address: fields.address,
    expiresAt,
  });
  return { token, wallet: fields.address, merchantId: member.merchantId, role: member.role, expiresAt };
}
