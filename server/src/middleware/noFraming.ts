/**
 * Pages the service serves (the hosted checkout, the demo shop, the sandbox KYC page, the development inbox)
 * are never shown inside another site's frame, where a page laid over them could trick a shopper into a
 * click (clickjacking): `Content-Security-Policy: frame-ancestors 'none'`, and `X-Frame-Options: DENY` for
 * browsers that predate it. Merchants embed the checkout with the `<crypto-checkout>` element, which runs in
 * their own page and is not affected.
 */
import type { Middleware } from 'koa';
import type { AppState } from '../context.ts';

/**
 * Sets the framing headers on every HTML answer; a page with a policy of its own (the console's, which
 * forbids framing too) keeps it.
 */
export function noFraming(): Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    if (!ctx.response.is('html')) return;
    if (!ctx.response.get('Content-Security-Policy'))
      ctx.set('Content-Security-Policy', "frame-ancestors 'none'");
    ctx.set('X-Frame-Options', 'DENY');
  };
}
