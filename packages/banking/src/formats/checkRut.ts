/** Why `value` is not a Chilean RUT (7 or 8 digits, dots and dash optional, mod-11 check digit 0–9 or K), or undefined. */
export function checkRut(value: string): string | undefined {
  const match = /^(\d{7,8}|\d{1,2}\.\d{3}\.\d{3})-?([0-9kK])$/.exec(value);
  if (!match?.[1] || !match[2]) return 'must be a RUT such as 12.345.678-5';
  const body = match[1].replaceAll('.', '');
  let sum = 0;
  let weight = 2;
  for (let i = body.length - 1; i >= 0; i--) {
    sum += Number(body[i]) * weight;
    weight = weight === 7 ? 2 : weight + 1;
  }
  const check = 11 - (sum % 11);
  const expected = check === 11 ? '0' : check === 10 ? 'K' : String(check);
  return match[2].toUpperCase() === expected ? undefined : 'has a wrong check digit';
}
