/** Timestamps on receipts. */

/** ISO 8601 → `2024-05-01 12:34:56 UTC`; text that is no timestamp is shown as is. */
export function formatTimestamp(iso: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  return `${new Date(time).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
