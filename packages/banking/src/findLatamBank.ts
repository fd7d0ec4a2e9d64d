import { latamBanks } from './latamBanks.ts';
import type { LatamBank, LatamCountryCode } from './types.ts';

function key(name: string): string {
  return name.normalize('NFC').trim().toUpperCase();
}

const byKey = new Map<LatamCountryCode, Map<string, LatamBank>>(
  Object.entries(latamBanks).map(([country, banks]) => [
    country as LatamCountryCode,
    new Map(banks.map((bank) => [key(bank.name), bank])),
  ]),
);

// Clients send the listed names verbatim, and people type them: case and surrounding spaces do not matter.
/** The bank of `country`'s list named `name`, ignoring case and surrounding whitespace, or undefined. */
export function findLatamBank(country: LatamCountryCode, name: string): LatamBank | undefined {
  return byKey.get(country)?.get(key(name));
}
