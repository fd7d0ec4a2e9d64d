// Federal Reserve routing symbols: 00 government, 01–12 banks, 21–32 thrifts, 61–72 electronic, 80 traveller's cheques.
const routingSymbol = /^(0[0-9]|1[0-2]|2[1-9]|3[0-2]|6[1-9]|7[0-2]|80)/;

/** Why `value` is not a US ABA routing number (9 digits, Federal Reserve prefix, 3-7-1 checksum), or undefined. */
export function checkAbaRoutingNumber(value: string): string | undefined {
  if (!/^\d{9}$/.test(value)) return 'must be 9 digits';
  if (!routingSymbol.test(value)) {
    return 'must start with a Federal Reserve routing symbol (00–12, 21–32, 61–72 or 80)';
  }
  const d = (i: number) => Number(value[i]);
  const sum = 3 * (d(0) + d(3) + d(6)) + 7 * (d(1) + d(4) + d(7)) + (d(2) + d(5) + d(8));
  return sum % 10 === 0 ? undefined : 'has a wrong check digit';
}
