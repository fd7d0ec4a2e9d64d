/** Dollar amounts on receipts. */
import { isDecimalString, normalizeDecimal } from '@checkout/core';

/** `25` → `25.00`, `25.5` → `25.50`; extra precision is kept, never rounded away; odd input is shown as is. */
export function formatUsd(amount: string): string {
  return isDecimalString(amount) ? normalizeDecimal(amount, 2) : amount;
}
