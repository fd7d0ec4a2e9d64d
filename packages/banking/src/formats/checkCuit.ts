const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
// The prefixes ARCA (formerly AFIP) and ANSES issue to a holder: 20, 23, 24, 27 for people (CUIL and CUIT),
// 30, 33, 34 for companies. 25 and 26 are not issued; 50, 51 and 55 are ARCA's per-country CUITs for foreign
// subjects without a CUIT, shared by everyone of that country, so they cannot name an account holder
// (docs/area-b-decisions.md).
const prefixes = ['20', '23', '24', '27', '30', '33', '34'];

/** Why `value` is not an Argentine CUIT/CUIL in electronic form (11 digits, holder prefix, mod-11), or undefined. */
export function checkCuit(value: string): string | undefined {
  if (!/^\d{11}$/.test(value)) return 'must be an 11-digit CUIT/CUIL, such as 20-26756539-3';
  if (!prefixes.includes(value.slice(0, 2))) return `must start with one of: ${prefixes.join(', ')}`;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += Number(value[i]) * (weights[i] ?? 0);
  const check = (11 - (sum % 11)) % 11;
  // Where the formula gives 10, AFIP has issued numbers ending in 9; accepting them avoids rejecting real CUITs.
  const expected = check === 10 ? 9 : check;
  return expected === Number(value[10]) ? undefined : 'has a wrong check digit';
}
