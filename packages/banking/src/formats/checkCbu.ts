function checkDigit(digits: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * (weights[i] ?? 0);
  return (10 - (sum % 10)) % 10;
}

// CVUs (wallet accounts) share the CBU layout, with 000 as bank code.
/** Why `value` is not an Argentine CBU or CVU (22 digits, two check digits), or undefined. */
export function checkCbu(value: string): string | undefined {
  if (!/^\d{22}$/.test(value)) return 'must be a 22-digit CBU or CVU';
  if (checkDigit(value.slice(0, 7), [7, 1, 3, 9, 7, 1, 3]) !== Number(value[7])) {
    return 'has a wrong check digit in its bank and branch block (8th digit)';
  }
  if (checkDigit(value.slice(8, 21), [3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3]) !== Number(value[21])) {
    return 'has a wrong check digit in its account block (22nd digit)';
  }
  return undefined;
}
