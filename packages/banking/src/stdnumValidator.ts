import { stdnum, type Validator } from 'stdnum';

// stdnum types its registry as a plain record; looking a validator up once, at load, keeps a missing one loud.
/** The stdnum validator of `country`'s `kind` (stdnum.MX.curp…); throws when the library has none. */
export function stdnumValidator(country: string, kind: string): Validator {
  const validator = stdnum[country]?.[kind];
  if (!validator) throw new Error(`stdnum has no validator ${country}.${kind}`);
  return validator;
}
