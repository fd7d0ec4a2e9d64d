/**
 * Conditional GET for JSON answers a client reads again and again (the console following the payments list
 * and a payment): the answer carries a weak ETag, a hash of its JSON, and a request whose `If-None-Match`
 * names it is answered `304 Not Modified` without a body. The answer is still computed; what is saved is the
 * transfer and the client's work. Routes declaring a `304` answer run behind it (`routesOn`, routes/declare.ts).
 */
import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';

/** True when an `If-None-Match` list names `etag` (weak comparison, RFC 9110 §13.1.2) or is `*`. */
function named(ifNoneMatch: string, etag: string): boolean {
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === bare);
}

/** Sets the ETag of a 200 JSON answer and turns it into a 304 when the request already holds it. */
export const conditionalGet: Middleware = async (ctx, next) => {
  await next();
  const body: unknown = ctx.body;
  if (ctx.status !== 200 || body === null || typeof body !== 'object' || Buffer.isBuffer(body)) return;
  if (typeof (body as { pipe?: unknown }).pipe === 'function') return;
  const text = JSON.stringify(body);
  const etag = `W/"${createHash('sha256').update(text).digest('base64url').slice(0, 32)}"`;
  ctx.set('ETag', etag);
  const asked = ctx.get('If-None-Match');
  if (asked && named(asked, etag)) {
    ctx.status = 304;
    ctx.body = null;
    return;
  }
  ctx.type = 'application/json';
  ctx.body = text;
};
