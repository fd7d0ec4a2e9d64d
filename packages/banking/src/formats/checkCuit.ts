const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
// 20, 23, 24, 25, 26, 27 are people (CUIL); 30, 33, 34 are companies.
const prefixes = ['20', '23', '24', '25', '26', '27', '30', '33', '34'];

// Digits only: the payout partner's own pattern accepts no dashes.
/** Why `value` is not an Argentine CUIT/CUIL (11 digits, type prefix, mod-11 check digit), or undefined. */
export function checkCuit(value: string): string | undefined {
  if (!/^\d{11}$/.test(value)) return 'must be an 11-digit CUIT/CUIL without dashes';
  if (!prefixes.includes(value.slice(0, 2))) return `must start with one of: ${prefixes.join(', ')}`;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += Number(value[i]) * (weights[i] ?? 0);
  const check = (11 - (sum % 11)) % 11;
  // Where the formula gives 10, AFIP has issued numbers ending in 9; accepting them avoids rejecting real CUITs.
  const expected = check === 10 ? 9 : check;
  return expected === Number(value[10]) ? undefined : 'has a wrong check digit';
}
