/** Reads JSON request bodies with a size limit; anything else is refused with the error shape. */
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, inflateRaw, type ZlibOptions } from 'node:zlib';
import { ApiError } from '@checkout/core';
import type { Middleware } from 'koa';
import getRawBody from 'raw-body';
import type { AppState } from '../context.ts';
import { duplicateJsonKey } from '../duplicateJsonKey.ts';

const methodsWithBody = new Set(['POST', 'PUT', 'PATCH']);

type Decode = (input: Buffer, options: ZlibOptions) => Promise<Buffer>;
const inflateAny: Decode = async (input, options) => {
  try {
    return await promisify(inflate)(input, options);
  } catch (error) {
    // Some clients send raw DEFLATE under `deflate` instead of the zlib format RFC 9110 names.
    if ((error as { code?: string }).code !== 'Z_DATA_ERROR') throw error;
    return promisify(inflateRaw)(input, options);
  }
};
const decoders: Readonly<Record<string, Decode>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: inflateAny,
  br: promisify(brotliDecompress),
};

/** The `Content-Encoding` codings, in the order they were applied; unknown ones are a 415. */
function contentCodings(header: string): string[] {
  const codings = header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  for (const coding of codings) {
    if (!decoders[coding]) {
      throw new ApiError(
        'unsupported_media_type',
        `Content-Encoding ${coding} is not supported: send gzip, deflate, br or no encoding`,
        { errors: [{ path: 'Content-Encoding', message: 'must be gzip, deflate, br or identity' }] },
      );
    }
  }
  return codings;
}

/** Undoes the codings; the decoded size is held to `limitBytes` at every step, so a small bomb stays small. */
async function decodeBody(raw: Buffer, codings: string[], limitBytes: number): Promise<Buffer> {
  let body = raw;
  for (const coding of [...codings].reverse()) {
    try {
      body = await decoders[coding]!(body, { maxOutputLength: limitBytes });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new ApiError('payload_too_large', `The decoded request body exceeds ${limitBytes} bytes`);
      }
      throw new ApiError('bad_request', `The request body is not valid ${coding} data`, {
        errors: [{ path: 'Content-Encoding', message: `does not match the body (${coding})` }],
      });
    }
  }
  return body;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses `application/json` bodies of POST/PUT/PATCH into `ctx.state.body` (the decoded bytes in
 * `rawBody`). Bodies may be sent gzip, deflate or br encoded; they must be UTF-8, and no object may give a
 * key twice (400 naming it).
 */
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
    const codings = contentCodings(ctx.get('content-encoding'));
    const received = await getRawBody(ctx.req, {
      limit: limitBytes,
      ...(declared > 0 ? { length: declared } : {}),
    });
    const raw = codings.length > 0 ? await decodeBody(received, codings, limitBytes) : received;
    ctx.state.rawBody = raw;
    let text: string;
    try {
      text = utf8.decode(raw);
    } catch {
      throw new ApiError('unsupported_media_type', 'The request body is not valid UTF-8');
    }
    if (text.trim() === '') {
      ctx.state.body = undefined;
      return next();
    }
    try {
      ctx.state.body = JSON.parse(text);
    } catch (error) {
      throw new ApiError('invalid_json', `The request body is not valid JSON: ${(error as Error).message}`);
    }
    const repeated = duplicateJsonKey(text);
    if (repeated !== undefined) {
      throw new ApiError('invalid_json', `The request body gives the key ${repeated} more than once`, {
        errors: [{ path: repeated, message: 'is given more than once' }],
      });
    }
    return next();
  };
}
