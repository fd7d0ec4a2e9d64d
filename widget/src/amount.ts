/** Decimal-string arithmetic for the shell: exact, and without loading viem before a payment starts. */

/** Whether `value` is a USD amount the API takes: a decimal greater than 0 with at most 2 decimals. */
export function dollarAmountProblem(value: string): 'required' | 'format' | 'positive' | null {
  const v = value.trim();
  if (v === '') return 'required';
  if (!/^\d+(\.\d{1,2})?$/.test(v)) return 'format';
  return toUnits(v, 2) > 0n ? null : 'positive';
}

/** A decimal string as an integer of `decimals` fractional digits (extra digits are cut). */
export function toUnits(value: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = value.trim().split('.');
  const digits = `${whole}${fraction.slice(0, decimals).padEnd(decimals, '0')}`;
  return BigInt(digits.replace(/^0+(?=\d)/, '') || '0');
}

/** An integer of `decimals` fractional digits as a decimal string without trailing zeros. */
export function fromUnits(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
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

/** A USD amount for people: the locale's currency format of a decimal string. */
export function formatUsd(value: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(Number(value));
}

/** A token amount for people: grouping of the locale, every significant decimal kept. */
export function formatToken(value: string, symbol: string, locale: string): string {
  const [whole = '0', fraction] = value.split('.');
  const grouped = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(BigInt(whole));
  const separator = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value;
  return `${grouped}${fraction ? `${separator ?? '.'}${fraction}` : ''} ${symbol}`;
}
