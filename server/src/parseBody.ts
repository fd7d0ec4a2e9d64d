/**
 * The one way a request body is validated: against its zod schema, naming every offending field, plus the
 * rules a schema cannot hold (a list of blocked countries, say), whose problems join the schema's.
 */
import { ApiError, type FieldError, fieldErrors, recordInvalid, safeParseReporting } from '@checkout/core';
import type { z } from 'zod';

/** Rules beyond the schema: the problems they find in the object under the root (or the whole body). */
export type BodyRules = (raw: Record<string, unknown>) => FieldError[];

/**
 * Parses `{ <root>: {...} }`, or a flat object when `root` is undefined. A missing body or root key is a
 * 400 `parameter_missing`; anything wrong inside is a 422 `record_invalid` listing every problem: the
 * schema's, then those of `rules` on fields the schema did not already name.
 */
export function parseBody<T extends z.ZodType>(
  schema: T,
  body: unknown,
  root?: string,
  rules?: BodyRules,
): z.output<T> {
  const isObject = (value: unknown): value is Record<string, unknown> =>
    value !== null && typeof value === 'object' && !Array.isArray(value);
  if (!isObject(body)) {
    throw new ApiError(
      'parameter_missing',
      root === undefined
        ? 'The request body must be a JSON object'
        : `The request body must be a JSON object with a "${root}" key`,
      { errors: [{ path: root ?? '(body)', message: 'is required' }] },
    );
  }
  if (root !== undefined && (!(root in body) || body[root] === null)) {
    throw new ApiError('parameter_missing', `param is missing or the value is empty: ${root}`, {
      errors: [{ path: root, message: 'is required' }],
    });
  }
  const parsed = safeParseReporting(schema, body);
  const errors = parsed.success ? [] : fieldErrors(parsed.error);
  const raw = root === undefined ? body : body[root];
  if (rules && isObject(raw)) {
    const taken = new Set(errors.map((e) => e.path));
    for (const error of rules(raw)) if (!taken.has(error.path)) errors.push(error);
  }
  if (errors.length > 0 || !parsed.success) throw recordInvalid(errors);
  return parsed.data;
}
