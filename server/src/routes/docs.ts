/** The words route declarations describe themselves with in the document (see ./declare.ts). */
import { ErrorResponse } from '@checkout/core';
import { z } from 'zod';
import { type RouteDoc, recordPath } from './declare.ts';

/** A JSON body of `schema`. */
export const json = (schema: z.ZodType) => ({ 'application/json': { schema } });

const errorDescriptions: Record<number, string> = {
  400: 'Missing parameter, malformed JSON or header',
  401: 'Missing or invalid API key',
  403: 'X-ADDRESS is not a wallet of this API key',
  404: 'No such record for this merchant',
  409: 'A request with the same Idempotency-Key is in progress',
  413: 'Body too large',
  415: 'Body is not JSON',
  422: 'Validation failed; `errors` names every field',
  503: 'A service it needs is unavailable',
};

/** Error answers in the one error shape. */
export const errors = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((s) => [
      String(s),
      { description: errorDescriptions[s] ?? 'Error', content: json(ErrorResponse) },
    ]),
  );

/** A 200 with a JSON body. */
export const ok = (description: string, schema: z.ZodType) => ({
  '200': { description, content: json(schema) },
});

/** A 201 with a JSON body: the record the request created. */
export const created = (description: string, schema: z.ZodType) => ({
  '201': { description, content: json(schema) },
});

/** An HTML page. */
export const html = (description: string) => ({
  description,
  content: { 'text/html': { schema: z.string() } },
});

/** A page, or for a path the service refuses outright, the one error body. */
export const htmlOrError = (description: string) => ({
  description,
  content: { 'text/html': { schema: z.string() }, ...json(ErrorResponse) },
});

/** The headers of Area A: the merchant's wallet, and the Idempotency-Key of a POST. */
export const merchantHeaders = z.object({
  'X-ADDRESS': z.string().meta({ description: "The merchant's receiving wallet address" }),
  'Idempotency-Key': z
    .string()
    .optional()
    .meta({ description: 'Replays the stored response of a retried POST' }),
});
/** Area A headers of a read. */
export const walletHeader = merchantHeaders.pick({ 'X-ADDRESS': true });

/** An Area A operation: API key and wallet. */
export const areaA = (op: RouteDoc): RouteDoc => ({ security: [{ apiKey: [] }], ...op });
/** An Area B operation: API key. */
export const areaB = (op: RouteDoc): RouteDoc => ({ security: [{ apiKey: [] }], ...op });

/** The public checkout API's rate limit. */
export const limited = {
  '429': {
    description: 'Too many requests from this client (see Retry-After)',
    content: json(ErrorResponse),
  },
};

/** Temporal is needed and not there. */
export const unavailable = {
  '503': { description: 'Workflows are disabled or unreachable', content: json(ErrorResponse) },
};

export const slugPath = z.object({ slug: z.string() });
export const kycTokenPath = z.object({ token: z.string() });
export const userPath = recordPath({ id: 'User' });
export const productPath = recordPath({ id: 'Product' });
export const expectedPaymentPath = recordPath({ id: 'Expected payment' });
export const sessionPath = recordPath({ id: 'Checkout session' });
export const deliveryPath = recordPath({ id: 'Webhook delivery' });
export const unmatchedPath = recordPath({ id: 'Unmatched transfer' });
export const resolvedPaymentPath = recordPath({ id: 'Resolved payment' });
export const refundPath = recordPath({ id: 'Refund' });
/** A refund page's token: the customer's claim link or the merchant's pay link. */
export const refundTokenPath = z.object({ token: z.string() });
export const detailPath = recordPath({ id: 'User', detailId: 'Payment detail' });
export const onrampPath = recordPath({ id: 'User', onrampId: 'Onramp' });
export const quotePath = recordPath({ id: 'User', quoteId: 'Quote' });
export const offrampPath = recordPath({ id: 'User', quoteId: 'Quote', offrampId: 'Offramp' });
export const userOfframpPath = recordPath({ id: 'User', offrampId: 'Offramp' });
