import { speiParticipants } from '../data/speiParticipants.ts';

const weights = [3, 7, 1];

/**
 * Why `value` is not a Mexican CLABE (18 digits, check digit weighted 3, 7, 1, and a bank code, digits 1–3,
 * of a SPEI participant on Banxico's list), or undefined.
 */
export function checkClabe(value: string): string | undefined {
  if (!/^\d{18}$/.test(value)) return 'must be an 18-digit CLABE';
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (Number(value[i]) * (weights[i % 3] ?? 0)) % 10;
  if ((10 - (sum % 10)) % 10 !== Number(value[17])) return 'has a wrong check digit';
  const code = value.slice(0, 3);
  return speiParticipants.has(code)
    ? undefined
    : `starts with ${code}, the code of no SPEI participant on Banxico's list: no bank SPEI pays into holds it`;
}
