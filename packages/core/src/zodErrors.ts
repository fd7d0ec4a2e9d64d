/** Turns zod issues into the API's field errors. */
import type { z } from 'zod';
import type { FieldError } from './errors.ts';

/** Every issue of a failed parse as `{path, message}`, the path dotted and prefixed with the body's root. */
export function fieldErrors(error: z.ZodError, prefix: string[] = []): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    const base = [...prefix, ...issue.path.map(String)];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        out.push({ path: [...base, key].join('.'), message: 'is not a known field' });
      continue;
    }
    out.push({ path: base.join('.') || '(body)', message: describe(issue) });
  }
  return out;
}

function describe(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${article(issue.expected)}`;
    case 'invalid_value':
      return `must be one of: ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'too_small':
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1
          ? "can't be blank"
          : `must have at least ${issue.minimum} characters`;
      if (issue.origin === 'array') return `must have at least ${issue.minimum} items`;
      return `must be greater than or equal to ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `must have at most ${issue.maximum} characters`;
      if (issue.origin === 'array') return `must have at most ${issue.maximum} items`;
      return `must be less than or equal to ${issue.maximum}`;
    case 'invalid_format':
      return issue.format === 'email' ? 'must be a valid e-mail address' : `must be a valid ${issue.format}`;
    case 'invalid_union': {
      const first = issue.errors.flat().find((i) => i.code !== 'invalid_type');
      return first ? describe(first) : 'has an invalid value';
    }
    default:
      return issue.message;
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** Parses with the offending inputs recorded, so a missing field reads "is required" and a wrong one its type. */
export function safeParseReporting<T extends z.ZodType>(
  schema: T,
  data: unknown,
): z.ZodSafeParseResult<z.output<T>> {
  return schema.safeParse(data, { reportInput: true });
}
