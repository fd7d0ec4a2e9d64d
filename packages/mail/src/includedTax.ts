/** The tax contained in a tax-inclusive price, as shown on receipts. */
import { fractionDigits, isDecimalString, parseUnits } from '@checkout/core';

/**
 * Tax included in `dollarAmount` at `taxRatePercent` (a percentage already in the price):
 * amount × rate / (100 + rate), exact in bigint and rounded half-up to the cent, e.g. `16.67`.
 */
export function includedTax(dollarAmount: string, taxRatePercent: string): string {
  if (!isDecimalString(dollarAmount)) throw new RangeError(`not a dollar amount: ${dollarAmount}`);
  if (!isDecimalString(taxRatePercent)) throw new RangeError(`not a tax rate: ${taxRatePercent}`);
  const amountScale = fractionDigits(dollarAmount);
  const rateScale = fractionDigits(taxRatePercent);
  const amount = parseUnits(dollarAmount, amountScale);
  const rate = parseUnits(taxRatePercent, rateScale);
  // cents = amount/10^a × (rate/10^r) / (100 + rate/10^r) × 100, kept as one fraction n / d.
  const numerator = amount * rate * 100n;
  const denominator = 10n ** BigInt(amountScale) * (100n * 10n ** BigInt(rateScale) + rate);
  const cents = (numerator * 2n + denominator) / (denominator * 2n);
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
}
