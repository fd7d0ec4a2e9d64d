/** Signing in to the console as a wallet, through HTTP: a nonce, an EIP-4361 message signed, the cookie. */
import type { LocalAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import type { TestResponse, TestService } from './service.ts';

/** What a test may change in the message, to make it wrong. */
export interface MessageOverrides {
  domain?: string;
  uri?: string;
  nonce?: string;
  expirationTime?: Date;
  /** The address the message names, when another wallet signs it (or a contract wallet's owner key does). */
  address?: `0x${string}`;
  /** The chain the message names: 1 unless given (a contract wallet's signature is checked there). */
  chainId?: number;
}

/** A signed-in console session: the Cookie header to send, and the CSRF token of its writes. */
export interface ConsoleSession {
  cookie: string;
  csrf: string;
  headers: (write?: boolean) => Record<string, string>;
}

/** A nonce from the service. */
async function consoleNonce(service: TestService): Promise<string> {
  const res = await service.request('POST', '/api/v1/console/nonce');
  if (res.status !== 200) throw new Error(`nonce: ${res.status} ${res.text}`);
  return res.body.nonce;
}

/** The message and signature for `account`, made for the service's PUBLIC_BASE_URL unless overridden. */
export async function signedMessage(
  service: TestService,
  account: LocalAccount,
  overrides: MessageOverrides = {},
): Promise<{ message: string; signature: string }> {
  const base = new URL(service.deps.config.publicBaseUrl);
  const message = createSiweMessage({
    address: overrides.address ?? account.address,
    chainId: overrides.chainId ?? 1,
    domain: overrides.domain ?? base.host,
    uri: overrides.uri ?? `${service.deps.config.publicBaseUrl}/console`,
    nonce: overrides.nonce ?? (await consoleNonce(service)),
    version: '1',
    statement: 'Sign in to the checkout console',
    ...(overrides.expirationTime ? { expirationTime: overrides.expirationTime } : {}),
  });
  return { message, signature: await account.signMessage({ message }) };
}

/** `POST /api/v1/console/session` with the signed message. */
export function postSignIn(
  service: TestService,
  signed: { message: string; signature: string },
  merchantId?: string,
): Promise<TestResponse> {
  return service.request('POST', '/api/v1/console/session', {
    json: { ...signed, ...(merchantId ? { merchant_id: merchantId } : {}) },
  });
}

/** The session of a successful sign-in answer. */
export function sessionOf(res: TestResponse): ConsoleSession {
  if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${res.text}`);
  const cookie = /console_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!cookie) throw new Error(`sign-in set no cookie: ${res.headers.get('set-cookie')}`);
  const csrf: string = res.body.csrf_token;
  return {
    cookie: `console_session=${cookie}`,
    csrf,
    headers: (write = false) => ({
      cookie: `console_session=${cookie}`,
      ...(write ? { 'x-csrf-token': csrf } : {}),
    }),
  };
}

/** Signs `account` in to the console (of `merchantId` when it belongs to several). */
export async function signInToConsole(
  service: TestService,
  account: LocalAccount,
  merchantId?: string,
): Promise<ConsoleSession> {
  return sessionOf(await postSignIn(service, await signedMessage(service, account), merchantId));
}
