/** The public checkout API's per-client rate limit (its counts are kept by ../publicRateLimitStore.ts). */
import { ApiError } from '@checkout/core';
import type { Middleware } from 'koa';
import type { AppState } from '../context.ts';
import type { PublicRateLimitStore } from '../publicRateLimitStore.ts';

/**
 * At most `perMinute` requests per client address and minute, counted in `store` (shared by every API
 * process on PostgreSQL). The address is the peer's, or — with TRUST_PROXY — the one the trusted proxies
 * forwarded. A store that fails lets the request through: the limit must never be why a shopper cannot pay.
 */
export function rateLimit(perMinute: number, store: PublicRateLimitStore): Middleware<AppState> {
  return async (ctx, next) => {
    let counted: { count: number; resetInMs: number } | undefined;
    try {
      counted = await store.hit(ctx.ip || 'unknown');
    } catch (error) {
      ctx.state.log.warn({ err: error }, 'rate limit store unavailable; request let through');
    }
    if (counted && counted.count > perMinute) {
      throw new ApiError('rate_limited', 'Too many requests; retry later', {
        headers: { 'Retry-After': String(Math.max(1, Math.ceil(counted.resetInMs / 1000))) },
      });
    }
    await next();
  };
}
