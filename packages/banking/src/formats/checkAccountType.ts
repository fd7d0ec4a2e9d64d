/** Why `value` is not an account type (`checking` or `savings`), or undefined when it is. */
export function checkAccountType(value: string): string | undefined {
  return value === 'checking' || value === 'savings' ? undefined : 'must be one of: checking, savings';
}
