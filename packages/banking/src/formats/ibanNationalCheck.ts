// National check digits inside the BBAN that ibantools leaves unchecked (it checks BA, BE, CZ, EE, ES, FR, HR,
// HU, MC, ME, MK, NO, PL, PT, RS, SI and SK). The positions are those of the SWIFT IBAN Registry (ISO 13616);
// each rule is the country's own, written from its standard:
// - IT, SM: the CIN, a letter before ABI, CAB and account (Associazione Bancaria Italiana's "Coordinate bancarie";
//   San Marino uses the Italian BBAN). Odd positions are looked up in the CIN table, even ones count 0–25.
// - FI, AX: the Finnish account number in its 14-digit machine form ends with a Luhn check digit (Finance
//   Finland's account number standard); Åland uses Finnish accounts.
// - IS: the last 10 digits are the holder's kennitala, whose 9th digit is mod 11 with weights 3 2 7 6 5 4 3 2
//   (Registers Iceland).
// - TL: the BBAN ends with ISO 7064 MOD 97-10 check digits over the rest: 98 − (the rest × 100 mod 97).
// - TN, MR: the BBAN ends with a RIB key: 97 − (the rest × 100 mod 97).
// - MK: the BBAN ends with ISO 7064 MOD 97-10 check digits over the rest, whose account part may hold letters
//   (the registry's format is 3!n10!c2!n); a letter counts as in the IBAN's own check, A = 10 … Z = 35.
//   ibantools reads the account as digits only and refuses every such IBAN, so this rule replaces its own.
// Both keys are compared digit for digit: `00` is never a key, though it leaves the same remainder as `97`.

const cinOdd = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];

/** 0–9 for a digit, 0–25 for A–Z: the CIN counts a letter by its place in the alphabet. */
function cinValue(c: string): number {
  return /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 65;
}

function italianCin(bban: string): boolean {
  let sum = 0;
  for (const [i, c] of [...bban.slice(1)].entries()) {
    sum += i % 2 === 0 ? (cinOdd[cinValue(c)] ?? 0) : cinValue(c);
  }
  return bban[0] === String.fromCharCode(65 + (sum % 26));
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (const [i, c] of [...digits].reverse().entries()) {
    const n = Number(c) * (i % 2 === 1 ? 2 : 1);
    sum += n > 9 ? n - 9 : n;
  }
  return sum % 10 === 0;
}

function kennitala(bban: string): boolean {
  const id = bban.slice(12);
  const weights = [3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((s, w, i) => s + w * Number(id[i]), 0);
  const check = (11 - (sum % 11)) % 11;
  return check !== 10 && check === Number(id[8]);
}

/** Whether the last two digits are `base` − (the digits before them × 100 mod 97). */
function mod97Key(base: bigint): (bban: string) => boolean {
  return (bban) => {
    const key = base - ((BigInt(bban.slice(0, -2)) * 100n) % 97n);
    return bban.slice(-2) === key.toString().padStart(2, '0');
  };
}

/** The BBAN's characters as digits, a letter counted A = 10 … Z = 35 (ISO 13616). */
function asDigits(text: string): bigint {
  return BigInt([...text].map((c) => (/\d/.test(c) ? c : String(c.charCodeAt(0) - 55))).join(''));
}

/** ISO 7064 MOD 97-10 over the BBAN's characters, letters included: 98 − (the rest × 100 mod 97). */
function alphanumericMod97Key(bban: string): boolean {
  const key = 98n - ((asDigits(bban.slice(0, -2)) * 100n) % 97n);
  return bban.slice(-2) === key.toString().padStart(2, '0');
}

const checks: Readonly<Record<string, (bban: string) => boolean>> = {
  IT: italianCin,
  SM: italianCin,
  FI: luhn,
  AX: luhn,
  IS: kennitala,
  TL: mod97Key(98n),
  TN: mod97Key(97n),
  MR: mod97Key(97n),
  MK: alphanumericMod97Key,
};

/** Countries whose national check this file makes instead of ibantools. */
export const nationalCheckReplaced: ReadonlySet<string> = new Set(['MK']);

/**
 * Whether the BBAN of an IBAN of `country` (already of the registry's length and format) carries a right
 * national check digit; true for the countries this file does not cover.
 */
export function ibanNationalCheckHolds(country: string, bban: string): boolean {
  return checks[country]?.(bban) ?? true;
}
