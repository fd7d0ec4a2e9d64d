/**
 * Answers what no route took: OPTIONS with the methods the path has, a known method the path lacks with a
 * 405, an unknown method with a 501. `Allow` lists OPTIONS too, and only the routes that really serve the
 * path: where a literal segment and a parameter could both match (`…/payment_details/validate` and
 * `…/payment_details/:pid`), the literal wins, as it does for the requests the API answers.
 */
import type { Middleware } from 'koa';
import type { AppState } from '../context.ts';

const implemented = new Set(['HEAD', 'OPTIONS', 'GET', 'PUT', 'PATCH', 'POST', 'DELETE']);

/** A route the routers matched on the path (koa-router's layer: its full path and methods). */
interface MatchedLayer {
  path: string | RegExp;
  methods: string[];
}

const isParameter = (segment: string) => segment.startsWith(':') || segment.startsWith('*');

/** True when `literal` names, at the first segment where the two differ, a literal where `other` has a parameter. */
function outranks(literal: string[], other: string[]): boolean {
  if (literal.length !== other.length) return false;
  for (let i = 0; i < literal.length; i++) {
    if (literal[i] === other[i]) continue;
    return !isParameter(literal[i]!) && isParameter(other[i]!);
  }
  return false;
}

/** The methods of the routes that serve the path, OPTIONS included; empty when no route has the path. */
function allowedMethodsOf(matched: readonly MatchedLayer[]): string[] {
  const routes = matched
    .filter((layer) => layer.methods.length > 0 && typeof layer.path === 'string')
    .map((layer) => ({ segments: (layer.path as string).split('/'), methods: layer.methods }));
  const serving = routes.filter((route) => !routes.some((other) => outranks(other.segments, route.segments)));
  if (serving.length === 0) return [];
  const methods = new Set(serving.flatMap((route) => route.methods));
  methods.add('OPTIONS');
  return [...methods];
}

/** Mounted after every router: reached only by requests no route handled. */
export function allowedMethods(): Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    if (ctx.body !== undefined && ctx.body !== null) return;
    const allowed = allowedMethodsOf((ctx as { matched?: MatchedLayer[] }).matched ?? []);
    if (allowed.length === 0) return;
    ctx.set('Allow', allowed.join(', '));
    if (!implemented.has(ctx.method)) ctx.status = 501;
    else if (ctx.method === 'OPTIONS') {
      ctx.status = 200;
      ctx.body = '';
    } else ctx.status = 405;
  };
}
