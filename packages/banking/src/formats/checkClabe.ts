const weights = [3, 7, 1];

/** Why `value` is not a Mexican CLABE (18 digits, check digit weighted 3, 7, 1), or undefined. */
export function checkClabe(value: string): string | undefined {
  if (!/^\d{18}$/.test(value)) return 'must be an 18-digit CLABE';
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (Number(value[i]) * (weights[i % 3] ?? 0)) % 10;
  return (10 - (sum % 10)) % 10 === Number(value[17]) ? undefined : 'has a wrong check digit';
}
