/**
 * Bearer API keys (or, without an Authorization header, the console's session cookie: consoleSession.ts), the
 * merchant wallet selected by X-ADDRESS for Area A, and the scope each route needs (`requireScope`, run by
 * every route that declares one: routes/declare.ts).
 */
import { ApiError, grants, type Scope } from '@checkout/core';
import { findWalletOfMerchant } from '@checkout/db';
import type { Context, Middleware, Next } from 'koa';
import { isAddress } from 'viem';
import type { AuthCache } from '../authCache.ts';
import type { AppState } from '../context.ts';
import { consoleMerchant, usesConsoleSession } from './consoleSession.ts';

const bearer = /^Bearer\s+(\S+)\s*$/i;

function unauthorized(message: string): ApiError {
  return new ApiError('unauthorized', message, { headers: { 'WWW-Authenticate': 'Bearer' } });
}

/** The key of `Authorization: Bearer <key>`, or a 401. */
function bearerKey(ctx: Context): string {
  const header = ctx.get('authorization');
  const match = bearer.exec(header);
  if (!match?.[1]) {
    throw unauthorized(
      header ? 'The Authorization header must be "Bearer <API key>"' : 'An API key is required',
    );
  }
  return match[1];
}

/** Methods that change nothing. */
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Runs the rest of the request; when it may have changed something of the caller's merchant, drops what
 * `cache` kept for it before the answer leaves, so the caller's next request reads the change.
 */
async function forgettingWrites(ctx: Context, cache: AuthCache, next: Next): Promise<void> {
  try {
    await next();
  } finally {
    const merchant = (ctx.state as AppState).merchant;
    if (merchant && !safeMethods.has(ctx.method)) cache.forget(merchant.merchantId);
  }
}

/**
 * Requires `Authorization: Bearer <key>` naming a valid key; sets `ctx.state.merchant`. Given `secretKey`
 * (which derives the CSRF token), a request without that header may use the console's session cookie
 * instead; without it (Area B), only keys are accepted. Keys are verified through `cache`.
 */
export function requireApiKey(cache: AuthCache, secretKey?: Buffer): Middleware<AppState> {
  return async (ctx, next) => {
    if (secretKey && usesConsoleSession(ctx)) {
      ctx.state.merchant = (await consoleMerchant(ctx, secretKey)).merchant;
      return forgettingWrites(ctx, cache, next);
    }
    const merchant = await cache.key(ctx.state.db, bearerKey(ctx));
    if (!merchant) throw unauthorized('The API key is not valid');
    await cache.noteUse(ctx.state.db, merchant);
    ctx.state.merchant = keyCaller(merchant);
    return forgettingWrites(ctx, cache, next);
  };
}

/** What is wrong with the X-ADDRESS header, if anything. */
function walletHeaderError(value: string): ApiError | undefined {
  return !value
    ? new ApiError('parameter_missing', 'The X-ADDRESS header is required', {
        errors: [{ path: 'X-ADDRESS', message: 'is required' }],
      })
    : !isAddress(value, { strict: false })
      ? new ApiError('invalid_header', 'X-ADDRESS is not a valid EVM address', {
          errors: [{ path: 'X-ADDRESS', message: 'is not a valid EVM address' }],
        })
      : undefined;
}

/**
 * Area A: a valid key plus `X-ADDRESS`, a wallet of the key's merchant (any letter case). One query on
 * the success path; the failure path finds out which of the two is wrong. Sets `merchant` and `address`.
 * Without an Authorization header, a console member acts on the wallet of its merchant X-ADDRESS names.
 */
export function requireMerchantWallet(cache: AuthCache, secretKey: Buffer): Middleware<AppState> {
  return async (ctx, next) => {
    if (usesConsoleSession(ctx))
      return memberWallet(ctx, secretKey, () => forgettingWrites(ctx, cache, next));
    const key = bearerKey(ctx);
    const value = ctx.get('x-address').trim();
    const headerError = walletHeaderError(value);
    const found = headerError ? undefined : await cache.wallet(ctx.state.db, key, value);
    if (!found) {
      // A bad key outranks a bad header: the caller learns nothing about wallets without a valid key.
      if (!(await cache.key(ctx.state.db, key))) throw unauthorized('The API key is not valid');
      throw (
        headerError ??
        new ApiError('forbidden', 'X-ADDRESS is not a wallet of this API key', {
          errors: [{ path: 'X-ADDRESS', message: 'is not a wallet of this API key' }],
        })
      );
    }
    await cache.noteUse(ctx.state.db, { apiKeyId: found.api_key_id, lastUsedAt: found.api_key_last_used_at });
    ctx.state.merchant = keyCaller({
      merchantId: found.merchant_id,
      apiKeyId: found.api_key_id,
      mode: found.api_key_mode,
      scopes: found.api_key_scopes,
    });
    ctx.state.address = {
      id: found.id,
      address: found.address,
      verified: found.verified,
      productsVersion: found.products_version,
    };
    return forgettingWrites(ctx, cache, next);
  };
}

/** Area A for a console member: X-ADDRESS must be a wallet of the member's merchant. */
async function memberWallet(ctx: Context, secretKey: Buffer, next: () => Promise<unknown>): Promise<unknown> {
  const { member, merchant } = await consoleMerchant(ctx, secretKey);
  const value = ctx.get('x-address').trim();
  const headerError = walletHeaderError(value);
  if (headerError) throw headerError;
  const found = await findWalletOfMerchant(ctx.state.db, member.merchantId, value);
  if (!found) {
    throw new ApiError('forbidden', 'X-ADDRESS is not a wallet of this merchant', {
      errors: [{ path: 'X-ADDRESS', message: 'is not a wallet of this merchant' }],
    });
  }
  const state = ctx.state as AppState;
  state.merchant = merchant;
  state.address = {
    id: found.id,
    address: found.address,
    verified: found.verified,
    productsVersion: found.products_version,
  };
  return next();
}

/**
 * Requires the authenticated caller to hold `scope` (or `all`): else `403 insufficient_scope` naming it, with
 * RFC 6750's `WWW-Authenticate` challenge. Runs after authentication and before the body is read.
 */
export function requireScope(scope: Scope): Middleware<AppState> {
  return (ctx, next) => {
    const merchant = ctx.state.merchant!;
    if (grants(merchant.scopes, scope)) return next();
    const holder =
      merchant.actor.kind === 'api_key' ? 'this API key does not hold' : "this member's role lacks";
    throw new ApiError('insufficient_scope', `This request needs the scope ${scope}, which ${holder}`, {
      errors: [{ path: 'scope', message: `${scope} is required` }],
      headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"` },
    });
  };
}

/** The caller an API key makes: its merchant, its scopes, test-only for a test key, named by the key in the audit log. */
function keyCaller(key: {
  merchantId: string;
  apiKeyId: string;
  mode: string;
  scopes: readonly Scope[];
}): NonNullable<AppState['merchant']> {
  return {
    merchantId: key.merchantId,
    apiKeyId: key.apiKeyId,
    testOnly: key.mode === 'test',
    scopes: key.scopes,
    actor: { kind: 'api_key', id: key.apiKeyId },
  };
}
