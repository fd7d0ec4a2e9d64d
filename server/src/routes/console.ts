/**
 * The console's sign-in: a nonce, then a signed EIP-4361 message for a session cookie; who is signed in;
 * signing out.
 */
import { ConsoleNonceResponse, ConsoleSession, ConsoleSignInRequest, ErrorResponse } from '@checkout/core';
import { deleteConsoleSession, merchantWalletAddresses } from '@checkout/db';
import { z } from 'zod';
import { issueNonce, type SignedIn, signIn } from '../consoleSignIn.ts';
import type { AppDeps, AppState } from '../context.ts';
import {
  clearedSessionCookie,
  consoleMember,
  csrfTokenOf,
  sessionCookie,
  sessionTokenOf,
} from '../middleware/consoleSession.ts';
import { type Routes, withBody } from './declare.ts';
import { errors, json, ok } from './docs.ts';

const csrfHeader = z.object({
  'X-CSRF-Token': z.string().meta({ description: 'The session’s `csrf_token`' }),
});
const forbidden = (description: string) => ({ '403': { description, content: json(ErrorResponse) } });

/** Registers the console's sign-in routes (on a router of their own: no API key, the public rate limit). */
export function consoleRoutes(router: Routes, deps: AppDeps): void {
  const { secretKey, publicBaseUrl } = deps.config;
  const secure = publicBaseUrl.startsWith('https:');
  const present = async (db: AppState['db'], session: Omit<SignedIn, 'token'>, token: string) => ({
    wallet: session.wallet,
    merchant_id: session.merchantId,
    role: session.role,
    merchant_wallets: await merchantWalletAddresses(db, session.merchantId),
    csrf_token: csrfTokenOf(secretKey, token),
    expires_at: session.expiresAt.toISOString(),
  });

  router.post(
    '/console/nonce',
    {
      summary: 'A nonce for one Sign-In with Ethereum message (single use, valid for minutes)',
      responses: { ...ok('The nonce', ConsoleNonceResponse), ...errors(429) },
    },
    async (ctx) => {
      ctx.body = { nonce: await issueNonce(ctx.state.db, deps.config) };
    },
  );

  router.post(
    '/console/session',
    {
      summary: 'Sign in to the console with a wallet: a signed EIP-4361 message sets the session cookie',
      responses: {
        ...ok('Signed in; Set-Cookie holds the session, `csrf_token` its CSRF proof', ConsoleSession),
        ...errors(400, 401, 422, 429),
        ...forbidden('The wallet belongs to no merchant’s console (or not to the one asked for)'),
      },
    },
    withBody({ schema: ConsoleSignInRequest }, async (ctx, body) => {
      const signedIn = await signIn(ctx.state.db, deps.config, deps.chains, body());
      ctx.append('Set-Cookie', sessionCookie(signedIn.token, signedIn.expiresAt, secure));
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await present(ctx.state.db, signedIn, signedIn.token);
    }),
  );

  router.get(
    '/console/session',
    {
      summary: 'Who is signed in with the session cookie, with the session’s CSRF token',
      description: 'Authenticated by the `console_session` cookie alone.',
      responses: { ...ok('The session', ConsoleSession), ...errors(401) },
    },
    async (ctx) => {
      const member = await consoleMember(ctx, secretKey);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await present(ctx.state.db, { ...member, wallet: member.address }, sessionTokenOf(ctx)!);
    },
  );

  router.delete(
    '/console/session',
    {
      summary: 'Sign out: the session ends and its cookie is cleared',
      description: 'Authenticated by the `console_session` cookie alone, with its `X-CSRF-Token`.',
      requestParams: { header: csrfHeader },
      responses: {
        '204': { description: 'Signed out' },
        ...errors(401),
        ...forbidden('X-CSRF-Token is missing or not the session’s'),
      },
    },
    async (ctx) => {
      await consoleMember(ctx, secretKey);
      await deleteConsoleSession(ctx.state.db, sessionTokenOf(ctx)!);
      ctx.append('Set-Cookie', clearedSessionCookie(secure));
      ctx.status = 204;
    },
  );
}
