/** Why `value` is not a UK sort code (6 digits, optionally written 12-34-56), or undefined when it is. */
export function checkSortCode(value: string): string | undefined {
  return /^(\d{6}|\d{2}-\d{2}-\d{2})$/.test(value)
    ? undefined
    : 'must be 6 digits, optionally written 12-34-56';
}
