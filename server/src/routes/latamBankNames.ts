/** Area B Latam bank names (spec 2.8, 4.13): the `bank_name` values a Latam payment detail accepts. */
import { LatamBankNamesError, latamBankNames } from '@checkout/banking';
import { LatamBankNamesResponse, recordInvalid } from '@checkout/core';
import { z } from 'zod';
import type { Routes } from './declare.ts';
import { areaB, errors, ok } from './docs.ts';

/** Registers `GET /latam_bank_names` on the Area B router. */
export function latamBankNameRoutes(router: Routes): void {
  router.get(
    '/latam_bank_names',
    areaB('users:read', {
      summary: 'Bank names accepted as bank_name for a Latam country',
      requestParams: {
        query: z.object({
          country_code: z.enum(['AR', 'CO', 'MX', 'CL', 'PE']),
          rails: z.string().optional().meta({
            description:
              'Required as koywe when country_code is CO (its list is that rail’s); ignored otherwise',
          }),
        }),
      },
      responses: { ...ok('Bank names', LatamBankNamesResponse), ...errors(400, 401, 422) },
    }),
    (ctx) => {
      const { country_code: countryCode, rails } = ctx.state.query;
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
