// `message` reads after `field` ("country_code must be one of: …") so the HTTP layer can map it to the API's field
// errors; `name` is set explicitly so identity survives bundling.
/** A `latam_bank_names` query that names no list: `field` is the query parameter at fault. */
export class LatamBankNamesError extends Error {
  override name = 'LatamBankNamesError' as const;
  readonly field: 'country_code' | 'rails';

  constructor(field: 'country_code' | 'rails', message: string) {
    super(message);
    this.field = field;
  }
}
