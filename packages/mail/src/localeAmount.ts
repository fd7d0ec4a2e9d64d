/**
 * Amounts on receipts as the checkout element writes them (widget/src/amount.ts `formatUsd` and `formatToken`),
 * so the shopper reads the same figure in the e-mail as on the page: exact decimal strings, never a float.
 */
import { isDecimalString } from '@checkout/core';

/** `1234.5` as its whole part (a bigint) and fraction digits; undefined for anything but a plain decimal. */
function split(value: string): { whole: bigint; fraction: string } | undefined {
  if (!isDecimalString(value)) return undefined;
  const [whole = '0', fraction = ''] = value.split('.');
  return { whole: BigInt(whole), fraction };
}

/**
 * A USD amount in `locale`'s currency format: `7,77 US$` (es), `US$ 7,77` (pt-BR), `$7.77` (en). Cents only, as
 * the element shows them (further digits are cut); the whole dollars are formatted as a bigint, so any size is
 * exact. Text that is no amount is shown as is.
 */
export function formatUsdIn(value: string, locale: string): string {
  const parts = split(value);
  if (!parts) return value;
  const cents = parts.fraction.slice(0, 2).padEnd(2, '0');
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' })
    .formatToParts(parts.whole)
    .map((part) => (part.type === 'fraction' ? cents : part.value))
    .join('');
}

/**
 * A decimal in `locale`'s grouping and decimal separator with every digit it has: `1.234,5` (es) for `1234.5`.
 * Token amounts and percentages; text that is no decimal is shown as is.
 */
export function formatDecimalIn(value: string, locale: string): string {
  const parts = split(value);
  if (!parts) return value;
  const grouped = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(parts.whole);
  if (!parts.fraction) return grouped;
  const decimal = new Intl.NumberFormat(locale).formatToParts(0.5).find((p) => p.type === 'decimal')?.value;
  return `${grouped}${decimal ?? '.'}${parts.fraction}`;
}
