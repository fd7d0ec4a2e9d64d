/** What every part of the configuration shares: the error it throws and how an empty variable reads. */
import { z } from 'zod';

/** The configuration is wrong; lists every offending variable, one problem a line. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(...problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
}

/** A variable that may be unset; an empty string counts as unset. */
export const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** Parses one table-shaped variable, naming it when it is malformed. */
export function table<T>(name: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`${name}: ${reason}`);
  }
}
