/** Untrusted text on a single line. */

/**
 * Control characters and line breaks become one space: a shopper's custom field or a product
 * name cannot start a line of its own that looks like part of the receipt.
 */
export function oneLine(value: string): string {
  return value.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim();
}
