/** The words route declarations describe themselves with in the document (see ./declare.ts). */
import { ErrorResponse, type Scope } from '@checkout/core';
import { z } from 'zod';
import { type RouteDoc, recordPath, recordQuery } from './declare.ts';

/** A JSON body of `schema`. */
export const json = (schema: z.ZodType) => ({ 'application/json': { schema } });

const errorDescriptions: Record<number, string> = {
  400: 'Missing parameter, malformed JSON or header',
  401: 'Missing or invalid API key',
  403: 'X-ADDRESS is not a wallet of this API key, or the key lacks the scope the operation needs',
  404: 'No such record for this merchant',
  409: 'A request with the same Idempotency-Key is in progress',
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

/**
 * What middleware/idempotency.ts accepts as an Idempotency-Key: 1 to 255 visible ASCII characters, or an
 * empty value, which counts as no key.
 */
export const idempotencyKeyDescription =
  'Replays the stored response of a retried POST (1–255 visible ASCII characters; empty counts as none)';
export const idempotencyKeyPattern = '^[!-~]{0,255}$';

/** The headers of Area A: the merchant's wallet, and the Idempotency-Key of a POST. */
export const merchantHeaders = z.object({
  'X-ADDRESS': z.string().meta({ description: "The merchant's receiving wallet address" }),
  'Idempotency-Key': z.string().optional().meta({
    description: idempotencyKeyDescription,
    pattern: idempotencyKeyPattern,
  }),
});
/** Area A headers of a read. */
export const walletHeader = merchantHeaders.pick({ 'X-ADDRESS': true });

/** The secret a checkout session's opener was given, which changing or closing the session requires. */
export const clientSecretHeader = (required: boolean) =>
  z.object({
    'X-Client-Secret': (required ? z.string() : z.string().optional()).meta({
      description: 'The `client_secret` returned when the session was opened: only its opener changes it',
    }),
  });

/**
 * An operation behind an API key (or the console's session cookie, middleware/consoleSession.ts) that needs
 * `scope`: the security requirement names it, and so does `x-required-scope`, which the route's declaration
 * enforces (`requiredScope`, ./declare.ts).
 */
const scoped = <D extends RouteDoc>(scope: Scope, op: D) => ({
  security: [{ apiKey: [scope] }, { consoleSession: [scope] }],
  'x-required-scope': scope,
  ...op,
});
/** An Area A operation: API key or console session (holding `scope`) and wallet. */
export const areaA = scoped;
/** An operation of the account's under /api/v1: API key or console session holding `scope`. */
export const account = scoped;
/** An Area B operation: API key holding `scope` (the console's cookie is not accepted there). */
export const areaB = <D extends RouteDoc>(scope: Scope, op: D) => ({
  security: [{ apiKey: [scope] }],
  'x-required-scope': scope,
  ...op,
});

/** The public checkout API's rate limit. */
export const limited = {
  '429': {
    description: 'Too many requests from this client (see Retry-After)',
    content: json(ErrorResponse),
  },
};

/**
 * The answer has not changed: the request's `If-None-Match` names its ETag (no body). Declaring it serves
 * the route behind `conditionalGet` (../middleware/conditionalGet.ts).
 */
export const notModified = {
  '304': { description: "Not modified: If-None-Match names the answer's ETag; no body" },
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
export const undeliveredEmailPath = recordPath({ id: 'Undelivered e-mail' });
export const resolvedPaymentPath = recordPath({ id: 'Resolved payment' });
export const refundPath = recordPath({ id: 'Refund' });
/** The checkout page's and view's query: the expected payment it is for, if any. */
export const expectedPaymentQuery = recordQuery({ expected_payment: 'Expected payment' });
/** A refund page's token: the customer's claim link or the merchant's pay link. */
export const refundTokenPath = z.object({ token: z.string() });
export const detailPath = recordPath({ id: 'User', detailId: 'Payment detail' });
export const onrampPath = recordPath({ id: 'User', onrampId: 'Onramp' });
export const quotePath = recordPath({ id: 'User', quoteId: 'Quote' });
export const offrampPath = recordPath({ id: 'User', quoteId: 'Quote', offrampId: 'Offramp' });
export const userOfframpPath = recordPath({ id: 'User', offrampId: 'Offramp' });
