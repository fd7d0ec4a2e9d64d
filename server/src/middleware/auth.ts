/** Bearer API keys, and the merchant wallet selected by X-ADDRESS for Area A. */
import { ApiError } from '@checkout/core';
import { findMerchantByApiKey, findMerchantWalletByApiKey } from '@checkout/db';
import type { Context, Middleware } from 'koa';
import { isAddress } from 'viem';
import type { AppState } from '../context.ts';

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

/** Requires `Authorization: Bearer <key>` naming a live key; sets `ctx.state.merchant`. */
export function requireApiKey(): Middleware<AppState> {
  return async (ctx, next) => {
    const merchant = await findMerchantByApiKey(ctx.state.db, bearerKey(ctx));
    if (!merchant) throw unauthorized('The API key is not valid');
    ctx.state.merchant = merchant;
    return next();
  };
}

/**
 * Area A: a live key plus `X-ADDRESS`, a wallet of the key's merchant (any letter case). One query on
 * the success path; the failure path finds out which of the two is wrong. Sets `merchant` and `address`.
 */
export function requireMerchantWallet(): Middleware<AppState> {
  return async (ctx, next) => {
    const key = bearerKey(ctx);
    const value = ctx.get('x-address').trim();
    const headerError = !value
      ? new ApiError('parameter_missing', 'The X-ADDRESS header is required', {
          errors: [{ path: 'X-ADDRESS', message: 'is required' }],
        })
      : !isAddress(value, { strict: false })
        ? new ApiError('invalid_header', 'X-ADDRESS is not a valid EVM address', {
            errors: [{ path: 'X-ADDRESS', message: 'is not a valid EVM address' }],
          })
        : undefined;
    const found = headerError ? undefined : await findMerchantWalletByApiKey(ctx.state.db, key, value);
    if (!found) {
      // A bad key outranks a bad header: the caller learns nothing about wallets without a valid key.
      if (!(await findMerchantByApiKey(ctx.state.db, key))) throw unauthorized('The API key is not valid');
      throw (
        headerError ??
        new ApiError('forbidden', 'X-ADDRESS is not a wallet of this API key', {
          errors: [{ path: 'X-ADDRESS', message: 'is not a wallet of this API key' }],
        })
      );
    }
    ctx.state.merchant = { merchantId: found.merchant_id, apiKeyId: found.api_key_id };
    ctx.state.address = {
      id: found.id,
      address: found.address,
      verified: found.verified,
      productsVersion: found.products_version,
    };
    return next();
  };
}
