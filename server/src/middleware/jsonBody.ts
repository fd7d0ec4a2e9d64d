/** Reads JSON request bodies with a size limit; anything else is refused with the error shape. */
import { ApiError } from '@checkout/core';
import type { Middleware } from 'koa';
import getRawBody from 'raw-body';
import type { AppState } from '../context.ts';

const methodsWithBody = new Set(['POST', 'PUT', 'PATCH']);

/** Parses `application/json` bodies of POST/PUT/PATCH into `ctx.state.body` (raw bytes in `rawBody`). */
export function jsonBody(limitBytes: number): Middleware<AppState> {
  return async (ctx, next) => {
    if (!methodsWithBody.has(ctx.method)) return next();
    const hasBody = ctx.request.length > 0 || ctx.get('transfer-encoding') !== '';
    if (!hasBody) {
      ctx.state.rawBody = Buffer.alloc(0);
      ctx.state.body = undefined;
      return next();
    }
    if (!ctx.is('application/json', '+json')) {
      throw new ApiError(
        'unsupported_media_type',
        'Request bodies must be JSON (Content-Type: application/json)',
      );
    }
    const declared = ctx.request.length;
    if (declared > limitBytes)
      throw new ApiError('payload_too_large', `The request body exceeds ${limitBytes} bytes`);
    const charset = (ctx.request.charset || 'utf-8').toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') {
      throw new ApiError('unsupported_media_type', 'JSON bodies must be UTF-8');
    }
    const raw = await getRawBody(ctx.req, {
      limit: limitBytes,
      ...(declared > 0 ? { length: declared } : {}),
    });
    ctx.state.rawBody = raw;
    const text = raw.toString('utf8');
    if (text.trim() === '') {
      ctx.state.body = undefined;
      return next();
    }
    try {
      ctx.state.body = JSON.parse(text);
    } catch (error) {
      throw new ApiError('invalid_json', `The request body is not valid JSON: ${(error as Error).message}`);
    }
    return next();
  };
}
