/**
 * The console's way to the API: the typed client (packages/client) in its session mode — the browser's
 * HttpOnly cookie authenticates, the session's CSRF token goes with every write — for the sign-in routes and
 * every page. Area A routes act on a receiving wallet (`X-ADDRESS`): an owner's own, a member's merchant's.
 */
import { type CheckoutApiError, type CheckoutClient, createCheckoutClient } from '@checkout/client';

/** Who is signed in (`POST` or `GET /api/v1/console/session`). */
export interface ConsoleSession {
  wallet: string;
  merchant_id: string;
  role: string;
  csrf_token: string;
  expires_at: string;
}

/** The session this tab holds, whose CSRF token the client sends. */
let current: ConsoleSession | undefined;

/** A client of this browser's session, naming `wallet` as `X-ADDRESS` when given. */
const clientFor = (wallet?: string): CheckoutClient =>
  createCheckoutClient({
    baseUrl: location.origin,
    ...(wallet ? { walletAddress: wallet } : {}),
    csrfToken: () => current?.csrf_token,
    retries: 1,
  });

const account = clientFor();

/** A failed call's error, thrown so that pages show it. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: CheckoutApiError | undefined,
  ) {
    super(body?.message ?? `HTTP ${status}`);
  }
}

/** The data of an openapi-fetch answer, or its error thrown. */
export function data<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined || result.error !== undefined)
    throw new ApiFailure(result.response.status, result.error as CheckoutApiError | undefined);
  return result.data;
}

/** The session of this browser's cookie, or null when none is signed in. */
export async function readSession(): Promise<ConsoleSession | null> {
  const answer = await account.GET('/api/v1/console/session');
  if (answer.response.status === 401) return null;
  current = data(answer);
  return current;
}

/** A fresh single-use nonce for the sign-in message. */
export async function nonce(): Promise<string> {
  return data(await account.POST('/api/v1/console/nonce')).nonce;
}

/** Trades a signed EIP-4361 message for the session cookie. */
export async function startSession(message: string, signature: string): Promise<ConsoleSession> {
  current = data(await account.POST('/api/v1/console/session', { body: { message, signature } }));
  return current;
}

/** Ends the session (its cookie is cleared by the answer). */
export async function endSession(): Promise<void> {
  await account.DELETE('/api/v1/console/session');
  current = undefined;
}

/**
 * The client of the signed-in session on its receiving wallet: an owner's own wallet, a member's merchant's
 * first receiving wallet (the team list names receiving wallets first, as owners added by no one).
 */
export async function sessionClient(session: ConsoleSession): Promise<CheckoutClient> {
  if (session.role === 'owner') return clientFor(session.wallet);
  const team = data(await account.GET('/api/v1/team_members')).team_members;
  const receiving = team.find((m) => m.role === 'owner' && m.added_by === null);
  return clientFor(receiving?.address ?? session.wallet);
}
