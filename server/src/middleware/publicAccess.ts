/** Public (unauthenticated) routes: open CORS for merchants' pages, and a per-client rate limit. */
import { ApiError } from '@checkout/core';
import type { Middleware } from 'koa';
import type { AppState } from '../context.ts';

/** `Access-Control-Allow-Origin: *` and preflight answers: the widget runs on any merchant's origin. */
export function openCors(): Middleware<AppState> {
  return async (ctx, next) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Access-Control-Expose-Headers', 'X-Request-Id, Retry-After');
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      ctx.set('Access-Control-Allow-Headers', 'Content-Type, Idempotency-Key, X-Request-Id');
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 204;
      return;
    }
    await next();
  };
}

/**
 * Fixed one-minute windows per client address, in memory: enough to stop a script from hammering
 * one API process; a fleet behind a proxy adds its own limits at the edge.
 */
export function rateLimit(perMinute: number): Middleware<AppState> {
  let windowStart = Date.now();
  let counts = new Map<string, number>();
  return async (ctx, next) => {
    const now = Date.now();
    if (now - windowStart >= 60_000) {
      windowStart = now;
      counts = new Map();
    }
    const key = ctx.ip || 'unknown';
    const used = (counts.get(key) ?? 0) + 1;
    counts.set(key, used);
    if (used > perMinute) {
      const retryAfter = Math.ceil((windowStart + 60_000 - now) / 1000);
      throw new ApiError('rate_limited', 'Too many requests; retry later', {
        headers: { 'Retry-After': String(retryAfter) },
      });
    }
    await next();
  };
}
