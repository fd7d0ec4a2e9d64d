/** Area B Latam bank names (spec 2.8, 4.13): the `bank_name` values a Latam payment detail accepts. */
import { LatamBankNamesError, latamBankNames } from '@checkout/banking';
import { ApiError, recordInvalid } from '@checkout/core';
import type { Router } from '@koa/router';
import type { AppState } from '../context.ts';

function single(value: string | string[] | undefined, name: string): string | undefined {
  if (Array.isArray(value)) throw recordInvalid([{ path: name, message: 'must be given once' }]);
  return value;
}

/** Registers `GET /latam_bank_names` on the Area B router. */
export function latamBankNameRoutes(router: Router<AppState>): void {
  router.get('/latam_bank_names', (ctx) => {
    const countryCode = single(ctx.query.country_code, 'country_code');
    const rails = single(ctx.query.rails, 'rails');
    if (countryCode === undefined || countryCode === '') {
      throw new ApiError('parameter_missing', 'param is missing or the value is empty: country_code', {
        errors: [{ path: 'country_code', message: 'is required' }],
      });
    }
    try {
      ctx.body = latamBankNames(countryCode, rails ?? null);
    } catch (error) {
      if (error instanceof LatamBankNamesError)
        throw recordInvalid([{ path: error.field, message: error.message }]);
      throw error;
    }
  });
}
