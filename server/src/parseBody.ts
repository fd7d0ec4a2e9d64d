/** Validates a request body against its zod schema, naming every offending field. */
import { ApiError, fieldErrors, recordInvalid, safeParseReporting } from '@checkout/core';
import type { z } from 'zod';

/**
 * Parses `{ <root>: {...} }`. A missing body or root key is a 400 `parameter_missing`; anything
 * wrong inside is a 422 `record_invalid` listing every problem.
 */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown, root: string): z.output<T> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError('parameter_missing', `The request body must be a JSON object with a "${root}" key`, {
      errors: [{ path: root, message: 'is required' }],
    });
  }
  if (!(root in body) || (body as Record<string, unknown>)[root] === null) {
    throw new ApiError('parameter_missing', `param is missing or the value is empty: ${root}`, {
      errors: [{ path: root, message: 'is required' }],
    });
  }
  const parsed = safeParseReporting(schema, body);
  if (!parsed.success) throw recordInvalid(fieldErrors(parsed.error));
  return parsed.data;
}
