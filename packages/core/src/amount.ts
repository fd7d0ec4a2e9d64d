/** Exact decimal amounts: bigint base units in memory, decimal strings on every wire. */

const decimalPattern = /^(0|[1-9]\d*)(\.\d+)?$/;

/** True when `value` is a plain non-negative decimal string such as `25`, `25.5` or `0.07`. */
export function isDecimalString(value: string): boolean {
  return decimalPattern.test(value);
}

/** Number of digits after the point in a decimal string. */
export function fractionDigits(value: string): number {
  const dot = value.indexOf('.');
  return dot === -1 ? 0 : value.length - dot - 1;
}

/**
 * Parses a non-negative decimal string into base units with `decimals` places.
 * Throws when the string is malformed or has more precision than `decimals`.
 */
export function parseUnits(value: string, decimals: number): bigint {
  if (!decimalPattern.test(value)) throw new RangeError(`not a decimal amount: ${value}`);
  const [whole = '0', fraction = ''] = value.split('.');
  const trimmed = fraction.replace(/0+$/, '');
  if (trimmed.length > decimals) throw new RangeError(`${value} has more than ${decimals} decimals`);
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(trimmed.padEnd(decimals, '0') || '0');
}

/** Formats base units as a decimal string with no trailing zeros (at least `minFraction` places). */
export function formatUnits(units: bigint, decimals: number, minFraction = 0): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const base = 10n ** BigInt(decimals);
  const whole = abs / base;
  let fraction = decimals === 0 ? '' : (abs % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  if (fraction.length < minFraction) fraction = fraction.padEnd(minFraction, '0');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * Canonical form of a decimal string (`"07.50"` is refused, `"7.50"` gives `"7.5"`, `"0"` gives `"0"`).
 * The scale is inferred from the input so no precision is lost.
 */
export function normalizeDecimal(value: string, minFraction = 0): string {
  const decimals = fractionDigits(value);
  return formatUnits(parseUnits(value, decimals), decimals, minFraction);
}

/**
 * A JSON number for a field the contract fixes as a number, formatted from the exact decimal string.
 * Values beyond float64 precision keep their shortest round-trip form.
 */
export function decimalToJsonNumber(value: string): number {
  return Number(value);
}

/**
 * Percentage difference between received and expected base units, as a decimal string with
 * up to `scale` places, rounded half away from zero: (received - expected) / expected * 100.
 * `0.0` means exact; the sign says over (+) or under (-) payment.
 */
export function percentDifference(expected: bigint, received: bigint, scale = 4): string {
  if (expected <= 0n) throw new RangeError('expected amount must be positive');
  const factor = 10n ** BigInt(scale);
  const numerator = (received - expected) * 100n * factor;
  const negative = numerator < 0n;
  const abs = negative ? -numerator : numerator;
  let quotient = abs / expected;
  if ((abs % expected) * 2n >= expected) quotient += 1n;
  const text = formatUnits(negative ? -quotient : quotient, scale, 1);
  return text === '-0.0' ? '0.0' : text;
}
