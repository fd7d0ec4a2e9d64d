/** Why `value` is not an Australian BSB number (6 digits, optionally written 123-456), or undefined when it is. */
export function checkBsb(value: string): string | undefined {
  return /^\d{3}-?\d{3}$/.test(value) ? undefined : 'must be 6 digits, optionally written 123-456';
}
