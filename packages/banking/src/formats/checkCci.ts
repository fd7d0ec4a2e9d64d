// Each block's check digit: weights 1, 2, 1, 2… from the left, two-digit products add their digits, then the
// complement to the next ten; it matches the CCIs Peruvian banks publish.
function checkDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const product = Number(digits[i]) * (i % 2 === 0 ? 1 : 2);
    sum += product > 9 ? product - 9 : product;
  }
  return (10 - (sum % 10)) % 10;
}

/** Why `value` is not a Peruvian CCI (3 bank, 3 branch, 12 account digits, 2 check digits), or undefined. */
export function checkCci(value: string): string | undefined {
  if (!/^\d{20}$/.test(value)) return 'must be a 20-digit CCI';
  if (
    checkDigit(value.slice(0, 6)) !== Number(value[18]) ||
    checkDigit(value.slice(6, 18)) !== Number(value[19])
  ) {
    return 'has wrong check digits';
  }
  return undefined;
}
