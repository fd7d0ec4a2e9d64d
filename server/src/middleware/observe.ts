/** Request id, one structured log line per request and the HTTP metrics. */
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppState } from '../context.ts';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../metrics.ts';

const requestIdPattern = /^[\w.:-]{1,128}$/;

/**
 * Paths whose segment is a credential — the sandbox KYC page's token, a refund's claim token (its holder
 * directs the refund) and a refund's pay token — logged as their route instead.
 */
const credentialPaths: ReadonlyArray<[RegExp, string]> = [
  [/^\/sandbox\/kyc\/[^/]*/, '/sandbox/kyc/:token'],
  [/^\/api\/v1\/refund_claims\/[^/]*/, '/api/v1/refund_claims/:token'],
  [/^\/api\/v1\/refund_payments\/[^/]*/, '/api/v1/refund_payments/:token'],
  [/^\/refunds\/claim\/[^/]*/, '/refunds/claim/:token'],
  [/^\/refunds\/pay\/[^/]*/, '/refunds/pay/:token'],
];

/**
 * The request path as it may be logged: credentials in it replaced by their parameter's name.
 * @internal unit-tested on its own
 */
export function loggablePath(path: string): string {
  for (const [pattern, route] of credentialPaths) if (pattern.test(path)) return path.replace(pattern, route);
  return path;
}

/** Assigns `X-Request-Id` (the caller's when well-formed), logs and measures the request. */
export function observe(logger: Logger, metrics: Metrics): Middleware<AppState> {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('x-request-id');
    const requestId = requestIdPattern.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ req_id: requestId });
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // The label is the path the router registered the route under (never the raw path: a label per
      // id would be unbounded); a handler outside the routers names its own.
      const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      const route = typeof matched === 'string' ? matched : (ctx.state.route ?? 'unmatched');
      const labels = { method: ctx.method, route, status: String(ctx.status) };
      metrics.requests.inc(labels);
      metrics.duration.observe(labels, seconds);
      ctx.state.log.info(
        {
          method: ctx.method,
          path: loggablePath(ctx.path),
          route,
          status: ctx.status,
          ms: Math.round(seconds * 10_000) / 10,
          merchant_id: ctx.state.merchant?.merchantId,
        },
        'request',
      );
    }
  };
}
