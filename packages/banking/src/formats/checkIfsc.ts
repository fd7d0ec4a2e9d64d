/** Why `value` is not an Indian IFSC (4-letter bank code, a 0, then a 6-character branch), or undefined when it is. */
export function checkIfsc(value: string): string | undefined {
  return /^[A-Z]{4}0[A-Z0-9]{6}$/.test(value)
    ? undefined
    : 'must be 11 characters: a 4-letter bank code, 0, then 6 letters or digits';
}
