/** The one error body (see errors.ts). */
import { z } from 'zod';
import { namedObject } from './common.ts';

export const ErrorResponse = namedObject('Error', {
  error_code: z.string().meta({ example: 'record_invalid' }),
  message: z.string(),
  status: z.number().int(),
  errors: z.array(z.strictObject({ path: z.string(), message: z.string() })),
});
