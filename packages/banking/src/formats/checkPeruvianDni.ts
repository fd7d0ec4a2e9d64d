// The character printed after the number on a Peruvian DNI is RENIEC's check of the CUI: the 8 digits weighted
// 3 2 7 6 5 4 3 2, the sum mod 11 picking the digit from 6 5 4 3 2 1 1 0 9 8 7, or the letter from
// K J I H G F E D C B A, which cards printed before 2007 show instead (python-stdnum's pe.cui, documented from
// RENIEC's DNI, takes either). The npm stdnum port knows only the digit, so the rule is written here.
const weights = [3, 2, 7, 6, 5, 4, 3, 2];
const checkDigits = '65432110987';
const checkLetters = 'KJIHGFEDCBA';

/** Whether `character` is the check digit or the check letter of the 8-digit DNI `digits`. */
function isCheckCharacter(digits: string, character: string): boolean {
  const sum = weights.reduce((s, w, i) => s + w * Number(digits[i]), 0) % 11;
  return character === checkDigits[sum] || character === checkLetters[sum];
}

/** A compact DNI without its check character when that character is right; anything else unchanged. */
export function peruvianDniDigits(compact: string): string {
  return /^\d{8}[0-9A-Z]$/.test(compact) && isCheckCharacter(compact.slice(0, 8), compact.slice(8))
    ? compact.slice(0, 8)
    : compact;
}

/** Why `value` is not a Peruvian DNI (8 digits; a right check character is dropped when canonical), or undefined. */
export function checkPeruvianDni(value: string): string | undefined {
  if (/^\d{8}$/.test(value)) return undefined;
  // A ninth character that is the card's check character would have been dropped: this one is wrong.
  if (/^\d{8}[0-9A-Z]$/.test(value)) {
    return 'has a wrong check character (the 9th, printed after the number on the card: a digit, or a letter on cards printed before 2007)';
  }
  return 'must be the 8 digits of a DNI';
}
