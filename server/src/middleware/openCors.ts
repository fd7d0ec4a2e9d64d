/** Public (unauthenticated) routes: open CORS for merchants' pages (the rate limit is rateLimit.ts). */
import type { Middleware } from 'koa';
import type { AppState } from '../context.ts';

/** `Access-Control-Allow-Origin: *` and preflight answers: the widget runs on any merchant's origin. */
export function openCors(): Middleware<AppState> {
  return async (ctx, next) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Access-Control-Expose-Headers', 'X-Request-Id, Retry-After');
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      ctx.set('Access-Control-Allow-Headers', 'Content-Type, Idempotency-Key, X-Request-Id, X-Client-Secret');
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 204;
      return;
    }
    await next();
  };
}
