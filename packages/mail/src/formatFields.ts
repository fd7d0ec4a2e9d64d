/** Aligned `Label:  value` lines of a plain-text receipt. */

/** One line per row with the values in one column; rows without a value are left out. */
export function formatFields(rows: readonly (readonly [string, string | undefined])[]): string {
  const present = rows.filter((row): row is readonly [string, string] => row[1] !== undefined);
  const width = Math.max(0, ...present.map(([label]) => label.length)) + 2;
  return present.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`).join('\n');
}
