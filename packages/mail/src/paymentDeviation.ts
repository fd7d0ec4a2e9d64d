/** Whether a payment is off by more than the spec's 1 % tolerance, compared exactly on the decimal string. */

/** `under` below -1.0, `over` above 1.0, undefined within the tolerance or when the value is no decimal. */
export function paymentDeviation(amountDifference: string): 'under' | 'over' | undefined {
  const match = /^\s*([+-]?)(\d+)(?:\.(\d+))?\s*$/.exec(amountDifference);
  if (!match) return undefined;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const wholePart = BigInt(whole);
  const beyond = wholePart > 1n || (wholePart === 1n && /[1-9]/.test(fraction));
  if (!beyond) return undefined;
  return sign === '-' ? 'under' : 'over';
}
