/** Bearer API keys, and the merchant wallet selected by X-ADDRESS for Area A. */
import { ApiError } from '@checkout/core';
import { findMerchantAddress, findMerchantByApiKey } from '@checkout/db';
import type { Middleware } from 'koa';
import { isAddress } from 'viem';
import type { AppState } from '../context.ts';

const bearer = /^Bearer\s+(\S+)\s*$/i;

/** Requires `Authorization: Bearer <key>` naming a live key; sets `ctx.state.merchant`. */
export function requireApiKey(): Middleware<AppState> {
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    const match = bearer.exec(header);
    if (!match?.[1]) {
      throw new ApiError(
        'unauthorized',
        header ? 'The Authorization header must be "Bearer <API key>"' : 'An API key is required',
        {
          headers: { 'WWW-Authenticate': 'Bearer' },
        },
      );
    }
    const merchant = await findMerchantByApiKey(ctx.state.db, match[1]);
    if (!merchant) {
      throw new ApiError('unauthorized', 'The API key is not valid', {
        headers: { 'WWW-Authenticate': 'Bearer' },
      });
    }
    ctx.state.merchant = merchant;
    return next();
  };
}

/** Requires `X-ADDRESS`, a wallet of the key's merchant (any letter case); sets `ctx.state.address`. */
export function requireMerchantAddress(): Middleware<AppState> {
  return async (ctx, next) => {
    const value = ctx.get('x-address').trim();
    if (!value) {
      throw new ApiError('parameter_missing', 'The X-ADDRESS header is required', {
        errors: [{ path: 'X-ADDRESS', message: 'is required' }],
      });
    }
    if (!isAddress(value, { strict: false })) {
      throw new ApiError('invalid_header', 'X-ADDRESS is not a valid EVM address', {
        errors: [{ path: 'X-ADDRESS', message: 'is not a valid EVM address' }],
      });
    }
    const merchant = ctx.state.merchant;
    const wallet = merchant ? await findMerchantAddress(ctx.state.db, merchant.merchantId, value) : undefined;
    if (!wallet) {
      throw new ApiError('forbidden', 'X-ADDRESS is not a wallet of this API key', {
        errors: [{ path: 'X-ADDRESS', message: 'is not a wallet of this API key' }],
      });
    }
    ctx.state.address = {
      id: wallet.id,
      address: wallet.address,
      verified: wallet.verified,
      productsVersion: wallet.products_version,
    };
    return next();
  };
}
