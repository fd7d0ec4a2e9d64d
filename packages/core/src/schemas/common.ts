/** Building blocks shared by the wire schemas. */
import { isAddress } from 'viem';
import { z } from 'zod';
import { fractionDigits, isDecimalString } from '../amount.ts';
import { jsonDepth, maxJsonDepth } from '../jsonDepth.ts';

/** ISO 8601 UTC timestamp with milliseconds, e.g. `2026-11-22T06:25:57.123Z`. */
export const Timestamp = z.iso.datetime({ precision: 3 }).meta({ example: '2026-11-22T06:25:57.123Z' });

export const Uuid = z.uuid();

/** A strict object under its own name in the API document (`id`): a request or response body. */
export function namedObject<S extends z.ZodRawShape>(id: string, shape: S) {
  return z.strictObject(shape).meta({ id });
}

/** A `superRefine` check that exactly one of two optional fields is given (an empty value is not given). */
export function exactlyOneOf<K extends string>(first: K, second: K) {
  return (value: Partial<Record<K, unknown>>, ctx: z.RefinementCtx) => {
    if (!value[first] === !value[second]) {
      ctx.addIssue({
        code: 'custom',
        path: [value[first] ? second : first],
        message: `give exactly one of ${first} and ${second}`,
      });
    }
  };
}

/** `since` and `until` of a list query: ISO 8601 bounds of when its records were made (at or after, before). */
export const timeWindow = {
  since: z.iso.datetime({ offset: true }).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
};

/** An EVM address in any letter case; stored and returned checksummed. */
export const EvmAddress = z
  .string()
  .refine((v) => isAddress(v, { strict: false }), { message: 'is not a valid EVM address' })
  .meta({ example: '0x5FbDB2315678afecb367f032d93F642f64180aa3' });

/**
 * An address typed by a person (a refund's destination, a wallet invited to the console): all lowercase, all
 * uppercase or with its correct EIP-55 checksum — a mixed-case address whose checksum is wrong is mistyped,
 * and refused.
 */
export const CheckedAddress = EvmAddress.refine(
  (v) => !isAddress(v, { strict: false }) || isAddress(v, { strict: true }),
  {
    message: 'has a wrong EIP-55 checksum: write it all lowercase, or with its correct capitals',
  },
);

/**
 * A free-form JSON object (metadata) with keys of `key`, nested at most {@link maxJsonDepth} levels: deeper
 * input is refused before anything serialises it again, which would exhaust the stack.
 */
export function jsonRecord(key: z.ZodString = z.string()) {
  return z.record(key, z.unknown()).refine((v) => jsonDepth(v) <= maxJsonDepth, {
    message: `must be nested at most ${maxJsonDepth} levels deep`,
    abort: true,
  });
}

/** An absolute http(s) URL. */
export const HttpUrl = z
  .string()
  .max(2048)
  .refine(
    (v) => {
      try {
        const url = new URL(v);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
      } catch {
        return false;
      }
    },
    { message: 'must be an absolute http(s) URL' },
  )
  .meta({ format: 'uri' });

/**
 * A non-negative decimal given as a JSON number or a decimal string, with at most `maxFraction`
 * places; parsed to its canonical decimal string so no float arithmetic happens afterwards.
 */
export function decimalInput(maxFraction: number) {
  return z.union([z.number(), z.string()]).transform((v, ctx) => {
    const text = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : v.trim();
    if (!isDecimalString(text)) {
      ctx.addIssue({ code: 'custom', message: 'must be a non-negative decimal number' });
      return z.NEVER;
    }
    if (fractionDigits(text) > maxFraction) {
      ctx.addIssue({ code: 'custom', message: `must have at most ${maxFraction} decimal places` });
      return z.NEVER;
    }
    return text;
  });
}
