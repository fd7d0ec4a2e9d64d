/** Decimal-string arithmetic for the shell: exact, and without loading viem before a payment starts. */

/** Largest USD amount of one checkout: the service refuses more (`maxDollarAmount` of the API). */
export const maxDollarAmount = '1000000000';

/** What is wrong with a USD amount: nothing typed, not a number, not above 0, above the service's cap. */
export type DollarAmountProblem = 'required' | 'format' | 'positive' | 'max';

/** The decimal and group separators of `locale` (`,` and `.` for `es`). */
function separatorsOf(locale: string): { decimal: string; group: string } {
  const parts = new Intl.NumberFormat(locale).formatToParts(12345.5);
  return {
    decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
    group: parts.find((p) => p.type === 'group')?.value ?? ',',
  };
}

// Spaces people type or a locale groups with (no-break and narrow no-break spaces included).
const spaces = /[\s\u00a0\u202f]/g;
const thousands = /^\d{1,3}$/;
const group3 = /^\d{3}$/;

/**
 * A number typed the locale's way as a plain decimal string (`"1.234,5"` in Spanish → `"1234.5"`), or null
 * when it is not one. The locale's decimal separator marks the decimals; its group separator may only
 * group thousands (1 to 3 digits, then groups of exactly 3); a `.` that cannot be a group of thousands is
 * a decimal point in every locale (`"12.50"`). Digits are kept as typed: nothing goes through a float.
 * @internal exported for its unit test
 */
export function normalizeAmount(input: string, locale: string): string | null {
  const { decimal, group } = separatorsOf(locale);
  const value = input.replace(spaces, '');
  if (value === '') return null;
  let whole = value;
  let fraction: string | undefined;
  const at = value.lastIndexOf(decimal);
  if (at >= 0) {
    whole = value.slice(0, at);
    fraction = value.slice(at + 1);
  } else if (decimal !== '.') {
    const dot = /^(\d+)\.(\d+)$/.exec(value);
    // "1.234" groups thousands in Spanish; "12.50" cannot, so it is a decimal point.
    if (dot?.[1] && dot[2] && !(group === '.' && thousands.test(dot[1]) && group3.test(dot[2]))) {
      whole = dot[1];
      fraction = dot[2];
    }
  }
  const groupChar = group.replace(spaces, '');
  if (groupChar && whole.includes(groupChar)) {
    const [first = '', ...rest] = whole.split(groupChar);
    if (!thousands.test(first) || !rest.every((g) => group3.test(g))) return null;
    whole = first + rest.join('');
  }
  if (!/^\d+$/.test(whole) || (fraction !== undefined && !/^\d+$/.test(fraction))) return null;
  return fraction === undefined ? whole : `${whole}.${fraction}`;
}

/**
 * A USD amount typed in `locale` as the decimal string the API takes (`"12.50"`), or what is wrong with it:
 * greater than 0 (a negative number, `-5`, is told so), at most 2 decimals, at most `maxDollarAmount`.
 */
export function parseDollarAmount(
  input: string,
  locale: string,
): { amount: string; problem: null } | { amount: null; problem: DollarAmountProblem } {
  if (input.trim() === '') return { amount: null, problem: 'required' };
  // A minus sign (ASCII or typographic) before a number: the amount is below 0, not badly written.
  const negative = /^[\s\u00a0\u202f]*[-\u2212]/.exec(input);
  if (negative && normalizeAmount(input.slice(negative[0].length), locale) !== null)
    return { amount: null, problem: 'positive' };
  const amount = normalizeAmount(input, locale);
  if (amount === null || !/^\d+(\.\d{1,2})?$/.test(amount)) return { amount: null, problem: 'format' };
  const cents = toUnits(amount, 2);
  if (cents <= 0n) return { amount: null, problem: 'positive' };
  if (cents > toUnits(maxDollarAmount, 2)) return { amount: null, problem: 'max' };
  return { amount: fromUnits(cents, 2, 2), problem: null };
}

/** A decimal string as an integer of `decimals` fractional digits (extra digits are cut). */
export function toUnits(value: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = value.trim().split('.');
  const digits = `${whole}${fraction.slice(0, decimals).padEnd(decimals, '0')}`;
  return BigInt(digits.replace(/^0+(?=\d)/, '') || '0');
}

/**
 * An integer of `decimals` fractional digits as a decimal string, trailing zeros dropped down to
 * `minFraction` digits.
 */
export function fromUnits(units: bigint, decimals: number, minFraction = 0): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  let fraction = digits.slice(digits.length - decimals);
  while (fraction.length > minFraction && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The tax included in a price: amount × rate / (100 + rate), in cents, rounded half up. */
export function includedTaxCents(amountCents: bigint, taxRate: number): bigint {
  // The rate has at most 4 decimals on the wire; scaling keeps the division exact.
  const rate = BigInt(Math.round(taxRate * 10_000));
  const numerator = amountCents * rate;
  const denominator = 100n * 10_000n + rate;
  return (2n * numerator + denominator) / (2n * denominator);
}

/**
 * A USD amount for people: the locale's currency format of a decimal string (cents; further digits are
 * cut), exact at any size: the whole dollars are formatted as a bigint and the cents put in the fraction.
 */
export function formatUsd(value: string, locale: string): string {
  const cents = toUnits(value, 2);
  const whole = cents / 100n;
  const fraction = (cents % 100n).toString().padStart(2, '0');
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' })
    .formatToParts(whole)
    .map((p) => (p.type === 'fraction' ? fraction : p.value))
    .join('');
}

/** Decimals a token amount is shown with: a millionth of a dollar, the smallest step a checkout asks. */
const shownDecimals = 6;

/**
 * A token amount for people: grouping of the locale and at most 6 decimals, at least `minFraction` (2 where
 * it stands beside a USD price: "4.20 BUSD"). What the shopper pays or spends is rounded up (`up`), so the
 * shopper is never short; what a wallet holds or a transfer brought is rounded down (`down`), so it is
 * never overstated. Only the display: what is signed stays exact.
 */
export function formatToken(
  value: string,
  symbol: string,
  locale: string,
  round: 'up' | 'down' = 'up',
  minFraction = 0,
): string {
  const [whole = '0', shown = ''] = roundToShown(value, round).split('.');
  const fraction = shown.padEnd(minFraction, '0');
  const grouped = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(BigInt(whole));
  return `${grouped}${fraction ? `${separatorsOf(locale).decimal}${fraction}` : ''} ${symbol}`;
}

/** `value` with at most 6 decimals, rounded `up` or `down`; as written when it has no more. */
function roundToShown(value: string, round: 'up' | 'down'): string {
  const fraction = value.split('.')[1] ?? '';
  if (fraction.length <= shownDecimals) return value;
  const cut = toUnits(value, shownDecimals);
  const rest = fraction.slice(shownDecimals);
  return fromUnits(round === 'up' && /[1-9]/.test(rest) ? cut + 1n : cut, shownDecimals);
}
