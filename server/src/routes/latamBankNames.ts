/** Area B Latam bank names (spec 2.8, 4.13): the `bank_name` values a Latam payment detail accepts. */
import { LatamBankNamesError, latamBankNames } from '@checkout/banking';
import { ApiError, LatamBankNamesResponse, recordInvalid } from '@checkout/core';
import { z } from 'zod';
import type { Routes } from './declare.ts';
import { areaB, errors, ok } from './docs.ts';

function single(value: string | string[] | undefined, name: string): string | undefined {
  if (Array.isArray(value)) throw recordInvalid([{ path: name, message: 'must be given once' }]);
  return value;
}

/** Registers `GET /latam_bank_names` on the Area B router. */
export function latamBankNameRoutes(router: Routes): void {
  router.get(
    '/latam_bank_names',
    areaB({
      summary: 'Bank names accepted as bank_name for a Latam country',
      requestParams: {
        query: z.object({
          country_code: z.enum(['AR', 'CO', 'MX', 'CL', 'PE']),
          rails: z.string().optional(),
        }),
      },
      responses: { ...ok('Bank names', LatamBankNamesResponse), ...errors(400, 401, 422) },
    }),
    (ctx) => {
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
    },
  );
}
