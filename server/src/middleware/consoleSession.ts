/**
 * The console's session cookie as a merchant's credential, the alternative to `Authorization: Bearer`: the
 * member it names is looked up on every request (a removed member's session stops at once), and every
 * state-changing request carries `X-CSRF-Token`, derived from the session's token by HMAC.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError, roleScopes } from '@checkout/core';
import { findOpenConsoleSession, type OpenConsoleSession } from '@checkout/db';
import type { Context } from 'koa';
import type { AppState } from '../context.ts';

/** The cookie's name; it is sent only to the API (`Path=/api/v1`). */
const consoleCookie = 'console_session';
const cookiePath = '/api/v1';

/** The header every POST, PUT, PATCH and DELETE made with the cookie must carry. */
const csrfHeader = 'X-CSRF-Token';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The CSRF token of a session: HMAC-SHA256 of its token under the service's secret key, base64url. */
export function csrfTokenOf(secretKey: Buffer, sessionToken: string): string {
  return createHmac('sha256', secretKey).update(`console-csrf:${sessionToken}`).digest('base64url');
}

/** The `Set-Cookie` value of a session: HttpOnly, SameSite=Strict, Secure when the service is on https. */
export function sessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  return [
    `${consoleCookie}=${token}`,
    `Path=${cookiePath}`,
    `Expires=${expiresAt.toUTCString()}`,
    `Max-Age=${maxAge}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/** The `Set-Cookie` value that removes the session cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie('', new Date(0), secure);
}

/** The session token the request's cookie holds, if any. */
export function sessionTokenOf(ctx: Context): string | undefined {
  return ctx.cookies.get(consoleCookie) || undefined;
}

function unauthorized(message: string): ApiError {
  return new ApiError('unauthorized', message, { headers: { 'WWW-Authenticate': 'Bearer' } });
}

/** Refuses a state-changing request whose `X-CSRF-Token` is not the session's. */
function checkCsrf(ctx: Context, secretKey: Buffer, token: string): void {
  if (safeMethods.has(ctx.method)) return;
  const given = Buffer.from(ctx.get(csrfHeader));
  const expected = Buffer.from(csrfTokenOf(secretKey, token));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ApiError(
      'forbidden',
      `A ${ctx.method} made with the console session needs the session's ${csrfHeader} header`,
      { errors: [{ path: csrfHeader, message: given.length ? 'is not this session’s' : 'is required' }] },
    );
  }
}

/**
 * The member the request's session cookie signs in: 401 when there is no open session (none, expired,
 * signed out, or its wallet removed from the team), 403 for a write without the session's CSRF token.
 */
export async function consoleMember(ctx: Context, secretKey: Buffer): Promise<OpenConsoleSession> {
  const token = sessionTokenOf(ctx);
  if (!token) throw unauthorized('An API key or a console session is required');
  const session = await findOpenConsoleSession((ctx.state as AppState).db, token, new Date());
  if (!session) throw unauthorized('The console session has expired or was closed; sign in again');
  checkCsrf(ctx, secretKey, token);
  return session;
}

/** Whether a request authenticates with the console cookie: it has one and no Authorization header. */
export function usesConsoleSession(ctx: Context): boolean {
  return !ctx.get('authorization') && sessionTokenOf(ctx) !== undefined;
}

/**
 * The merchant route's caller signed in with the cookie (`consoleMember`) and its `ctx.state.merchant`: its
 * merchant, the scopes of its role (each route checks the one it declares: routes/declare.ts), its wallet as
 * the actor.
 */
export async function consoleMerchant(
  ctx: Context,
  secretKey: Buffer,
): Promise<{ member: OpenConsoleSession; merchant: NonNullable<AppState['merchant']> }> {
  const member = await consoleMember(ctx, secretKey);
  return {
    member,
    merchant: {
      merchantId: member.merchantId,
      testOnly: false,
      scopes: roleScopes[member.role],
      actor: { kind: 'wallet', address: member.address },
    },
  };
}
