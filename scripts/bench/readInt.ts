/** Integer settings of the benchmark and chaos scripts, read from the environment. */

/** `process.env[name]` as an integer from `min` to `max`, or `fallback` when unset; throws naming the variable otherwise. */
export function readInt(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return value;
}
