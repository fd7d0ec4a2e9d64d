/**
 * Ramp pricing with exact arithmetic: fiat amounts are cents (bigint), token amounts base units, rates
 * decimal strings. Fee rules and FX rates come from configuration tables (see docs/area-b-decisions.md).
 */
import { formatUnits, isDecimalString, parseUnits } from './amount.ts';

/** One fee rule: `fixed + ceil(amount * bps / 10000)`, never below `minimum`; money in fiat cents. */
export interface FeeRule {
  currency: string;
  rail: string;
  bps: bigint;
  fixedCents: bigint;
  minimumCents: bigint;
}

/** Fiat is priced to the cent. */
export const fiatDecimals = 2;

/**
 * The largest amount one offramp pays out, or one price calculation takes, in fiat or whole tokens: far
 * within the numeric(20,2) columns and exact as a JSON number.
 */
export const maxOfframpAmount = '1000000000';

/**
 * Parses a fee table: comma-separated `currency:rail:bps:fixed:minimum` (e.g. `usd:wire:40:0:10`);
 * throws a message naming the bad entry.
 */
export function parseFeeTable(text: string): FeeRule[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const [currency, rail, bps, fixed, minimum, ...rest] = part.split(':');
      if (
        !currency ||
        !rail ||
        rest.length > 0 ||
        !/^\d+$/.test(bps ?? '') ||
        !isDecimalString(fixed ?? '') ||
        !isDecimalString(minimum ?? '')
      ) {
        throw new Error(`"${part}" is not currency:rail:bps:fixed:minimum`);
      }
      return {
        currency: currency.toLowerCase(),
        rail: rail.toLowerCase(),
        bps: BigInt(bps as string),
        fixedCents: parseUnits(fixed as string, fiatDecimals),
        minimumCents: parseUnits(minimum as string, fiatDecimals),
      };
    });
}

/** Parses FX rates: comma-separated `currency:rate`, the rate being fiat units per one USD stablecoin. */
export function parseRateTable(text: string): Map<string, string> {
  const rates = new Map<string, string>();
  for (const part of text.split(',').map((p) => p.trim())) {
    if (part === '') continue;
    const [currency, rate, ...rest] = part.split(':');
    if (!currency || !rate || rest.length > 0 || !isDecimalString(rate) || /^0(\.0*)?$/.test(rate)) {
      throw new Error(`"${part}" is not currency:rate with a positive decimal rate`);
    }
    rates.set(currency.toLowerCase(), rate);
  }
  return rates;
}

/** The fee of `amountCents` under a rule, rounded up to the cent. */
export function feeCents(rule: FeeRule, amountCents: bigint): bigint {
  const proportional = (amountCents * rule.bps + 9_999n) / 10_000n;
  const fee = rule.fixedCents + proportional;
  return fee < rule.minimumCents ? rule.minimumCents : fee;
}

/** Fiat cents as a decimal string with two places (`1004.00`), for numeric(20,2) columns. */
export function centsToDecimal(cents: bigint): string {
  return formatUnits(cents, fiatDecimals, fiatDecimals);
}

/**
 * Token base units needed to deliver `fiatCents` at `rate` (fiat per token), rounded up so the payout
 * is always covered.
 */
export function tokenUnitsForFiat(fiatCents: bigint, rate: string, tokenDecimals: number): bigint {
  const scale = rate.includes('.') ? rate.length - rate.indexOf('.') - 1 : 0;
  const rateUnits = parseUnits(rate, scale);
  const numerator = fiatCents * 10n ** BigInt(tokenDecimals) * 10n ** BigInt(scale);
  const denominator = 10n ** BigInt(fiatDecimals) * rateUnits;
  return (numerator + denominator - 1n) / denominator;
}

/**
 * Fiat cents that `tokenUnits` buy at `rate` (fiat per token), rounded down so the quote never overpromises.
 * @internal exported for its unit test
 */
export function fiatCentsForTokens(tokenUnits: bigint, rate: string, tokenDecimals: number): bigint {
  const scale = rate.includes('.') ? rate.length - rate.indexOf('.') - 1 : 0;
  const rateUnits = parseUnits(rate, scale);
  return (
    (tokenUnits * rateUnits * 10n ** BigInt(fiatDecimals)) /
    (10n ** BigInt(tokenDecimals) * 10n ** BigInt(scale))
  );
}

/** One payout's price: the fiat delivered, its fee, and the tokens to deposit for both. */
export interface OfframpPrice {
  fiatCents: bigint;
  feeCents: bigint;
  tokenUnits: bigint;
}

/**
 * Prices a single payout from either side: with `fiatCents`, the tokens needed to deliver it plus its
 * fee; with `tokenUnits`, the largest fiat amount those tokens cover after the fee (found by bisection,
 * since the fee has a minimum and rounds up).
 */
export function priceOfframp(
  input: { fiatCents: bigint } | { tokenUnits: bigint },
  rule: FeeRule,
  rate: string,
  tokenDecimals: number,
): OfframpPrice {
  const priced = (fiatCents: bigint): OfframpPrice => {
    const fee = feeCents(rule, fiatCents);
    return { fiatCents, feeCents: fee, tokenUnits: tokenUnitsForFiat(fiatCents + fee, rate, tokenDecimals) };
  };
  if ('fiatCents' in input) return priced(input.fiatCents);
  let low = 0n;
  let high = fiatCentsForTokens(input.tokenUnits, rate, tokenDecimals);
  // Bisection over cents: at most ~64 rounds for any amount that fits the columns.
  for (let round = 0; low < high && round < 128; round++) {
    const mid = (low + high + 1n) / 2n;
    if (priced(mid).tokenUnits <= input.tokenUnits) low = mid;
    else high = mid - 1n;
  }
  return priced(low);
}
