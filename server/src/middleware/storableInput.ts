/**
 * Refuses, for every route, input PostgreSQL cannot store (NUL, lone surrogates): in the path a 404
 * (no record has such an id), in the query string or the JSON body a 422 naming each parameter or field.
 */
import {
  ApiError,
  printableText,
  recordInvalid,
  unstorableTextErrors,
  unstorableTextReason,
} from '@checkout/core';
import type { Middleware } from 'koa';
import type { AppState } from '../context.ts';

/** The path as the router decodes it; undecodable escapes are left as they are, as the router does. */
function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Runs after the body is parsed (after authentication, on routers that authenticate) and before the route. */
export function storableInput(): Middleware<AppState> {
  return async (ctx, next) => {
    if (unstorableTextReason(decodedPath(ctx.path))) {
      throw new ApiError('record_not_found', 'Not found: the path holds a character no id or name can hold');
    }
    const errors = Object.entries(ctx.query).flatMap(([name, value]) => {
      const reason = unstorableTextReason(name);
      if (reason) return [{ path: printableText(name), message: `is a parameter name that ${reason}` }];
      return unstorableTextErrors(value, [name]).map((e) => ({ ...e, path: name }));
    });
    errors.push(...unstorableTextErrors(ctx.state.body));
    if (errors.length > 0) throw recordInvalid(errors);
    return next();
  };
}
