/** The OpenAPI 3.1 document, generated from the same zod schemas the handlers validate with. */
import {
  CheckoutSessionCreateBody,
  CheckoutSessionResponse,
  CheckoutTransactionBody,
  CheckoutView,
  ErrorResponse,
  ExpectedPaymentCreateBody,
  ExpectedPaymentResponse,
  KycSessionResponse,
  LatamBankNamesResponse,
  OfframpListResponse,
  OfframpRefundBody,
  OfframpResendBody,
  OfframpResponse,
  OfframpsCreateBody,
  OfframpUpdateBody,
  OnrampCreateBody,
  OnrampListResponse,
  OnrampResponse,
  PaymentDetailBody,
  PaymentDetailListResponse,
  PaymentDetailResponse,
  PaymentDetailValidationResponse,
  ProductCreateBody,
  ProductListResponse,
  ProductResponse,
  ProductUpdateBody,
  QuoteCreateBody,
  QuoteExecuteBody,
  QuoteRateBody,
  QuoteRateResponse,
  QuoteResponse,
  ResolvedPaymentListResponse,
  SandboxDepositBody,
  SandboxDepositResponse,
  SandboxKycBody,
  SandboxPaymentDetailBody,
  UpdatedProductResponse,
  UserCreateBody,
  UserListResponse,
  UserResponse,
  WebhookDeliveryListResponse,
  WebhookDeliveryResponse,
  WebhookEndpointBody,
  WebhookEndpointResponse,
  WebhookSecretResponse,
} from '@checkout/core';
import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import type { AppDeps } from './context.ts';

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });

const errors = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((s) => [
      String(s),
      { description: errorDescriptions[s] ?? 'Error', content: json(ErrorResponse) },
    ]),
  );

const errorDescriptions: Record<number, string> = {
  400: 'Missing parameter, malformed JSON or header',
  401: 'Missing or invalid API key',
  403: 'X-ADDRESS is not a wallet of this API key',
  404: 'No such record for this merchant',
  409: 'A request with the same Idempotency-Key is in progress',
  413: 'Body too large',
  415: 'Body is not JSON',
  422: 'Validation failed; `errors` names every field',
};

const merchantHeaders = z.object({
  'X-ADDRESS': z.string().meta({ description: "The merchant's receiving wallet address" }),
  'Idempotency-Key': z
    .string()
    .optional()
    .meta({ description: 'Replays the stored response of a retried POST' }),
});

const productId = z.object({ id: z.uuid() });

const areaA = (op: ZodOpenApiOperationObject): ZodOpenApiOperationObject => ({
  security: [{ apiKey: [] }],
  ...op,
});

/** The Idempotency-Key header every POST behind an API key honours (Area A declares it with X-ADDRESS). */
const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Replays the stored response of a retried POST (1–255 visible ASCII characters)',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
} as const;

/** Builds the document once at start. */
export function buildOpenApiDocument(deps: Pick<AppDeps, 'config'>): ReturnType<typeof createDocument> {
  const document = buildDocument(deps);
  const errorBody = (description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  });
  type Operation = {
    security?: unknown;
    parameters?: Array<{ name?: string; in?: string }>;
    responses?: Record<string, unknown>;
  };
  for (const item of Object.values(document.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
      op.responses ??= {};
      const responses = op.responses;
      // Every request's query string is checked for text the database cannot store.
      responses['422'] ??= errorBody(
        'A query parameter (or the body) holds a value refused; `errors` names it',
      );
      if (method !== 'post' || !op.security) continue;
      op.parameters ??= [];
      const parameters = op.parameters;
      if (!parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key')) {
        parameters.push({ ...idempotencyKeyParameter });
      }
      responses['400'] ??= errorBody('Missing parameter, malformed JSON or header (such as Idempotency-Key)');
    }
  }
  return document;
}

function buildDocument(deps: Pick<AppDeps, 'config'>): ReturnType<typeof createDocument> {
  const update = areaA({
    summary: 'Enable or disable a product',
    requestParams: { header: merchantHeaders, path: productId },
    requestBody: { required: true, content: json(ProductUpdateBody) },
    responses: {
      '200': { description: 'The updated product', content: json(UpdatedProductResponse) },
      ...errors(400, 401, 403, 404, 415, 422),
    },
  });
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Stablecoin checkout and fiat ramp API',
      version: '1.0.0',
      description: 'Merchant checkout (Area A, under /api/v1) and fiat users, payouts and ramps (Area B).',
    },
    servers: [{ url: deps.config.publicBaseUrl }],
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'API key' } },
    },
    paths: {
      '/api/v1/products': {
        post: areaA({
          summary: 'Create a product',
          requestParams: { header: merchantHeaders },
          requestBody: { required: true, content: json(ProductCreateBody) },
          responses: {
            '200': { description: 'The new product', content: json(ProductResponse) },
            ...errors(400, 401, 403, 409, 413, 415, 422),
          },
        }),
        get: areaA({
          summary: "List the wallet's products",
          requestParams: { header: merchantHeaders.pick({ 'X-ADDRESS': true }) },
          responses: {
            '200': { description: 'Products', content: json(ProductListResponse) },
            ...errors(400, 401, 403),
          },
        }),
      },
      '/api/v1/products/{id}': { patch: update },
      '/api/v1/product/{id}': {
        patch: { ...update, summary: 'Enable or disable a product (alias)' },
      },
      '/api/v1/products/{id}/resolved_payments': {
        get: areaA({
          summary: "List a product's resolved payments",
          requestParams: { header: merchantHeaders.pick({ 'X-ADDRESS': true }), path: productId },
          responses: {
            '200': { description: 'Resolved payments', content: json(ResolvedPaymentListResponse) },
            ...errors(400, 401, 403, 404),
          },
        }),
      },
      '/api/v1/products/{id}/webhook_deliveries': {
        get: areaA({
          summary: "List a product's webhook deliveries, newest first, with every attempt",
          requestParams: { header: merchantHeaders.pick({ 'X-ADDRESS': true }), path: productId },
          responses: {
            '200': { description: 'Webhook deliveries', content: json(WebhookDeliveryListResponse) },
            ...errors(400, 401, 403, 404),
          },
        }),
      },
      '/api/v1/webhook_deliveries/{id}/redeliver': {
        post: areaA({
          summary: 'Send a delivery again: same bytes, same URL, linked to the original',
          requestParams: { header: merchantHeaders, path: z.object({ id: z.uuid() }) },
          responses: {
            '200': { description: 'The new delivery', content: json(WebhookDeliveryResponse) },
            ...errors(400, 401, 403, 404, 409, 422),
            '503': { description: 'Workflows are disabled or unreachable', content: json(ErrorResponse) },
          },
        }),
      },
      '/api/v1/webhook_secret': {
        get: areaA({
          summary: 'The webhook signing secret (created on first read)',
          requestParams: { header: merchantHeaders.pick({ 'X-ADDRESS': true }) },
          responses: {
            '200': { description: 'The secret', content: json(WebhookSecretResponse) },
            ...errors(400, 401, 403),
          },
        }),
      },
      '/api/v1/webhook_secret/rotate': {
        post: areaA({
          summary: 'Replace the webhook signing secret; later attempts are signed with the new one',
          requestParams: { header: merchantHeaders },
          responses: {
            '200': { description: 'The new secret', content: json(WebhookSecretResponse) },
            ...errors(400, 401, 403, 409, 422),
          },
        }),
      },
      '/api/v1/products/{id}/expected_payments': {
        post: areaA({
          summary: 'Create an expected payment: a fixed amount to pay through the checkout, with its link',
          requestParams: { header: merchantHeaders, path: productId },
          requestBody: { required: true, content: json(ExpectedPaymentCreateBody) },
          responses: {
            '200': { description: 'The expected payment', content: json(ExpectedPaymentResponse) },
            ...errors(400, 401, 403, 404, 409, 413, 415, 422),
          },
        }),
      },
      '/api/v1/expected_payments/{id}': {
        get: areaA({
          summary: 'Show an expected payment',
          requestParams: { header: merchantHeaders.pick({ 'X-ADDRESS': true }), path: productId },
          responses: {
            '200': { description: 'The expected payment', content: json(ExpectedPaymentResponse) },
            ...errors(400, 401, 403, 404),
          },
        }),
      },
      ...publicCheckoutPaths(),
      ...areaBPaths(deps.config.areaB.sandboxEnabled),
      ...rampPaths(deps.config.areaB.sandboxEnabled),
      ...pagePaths(deps),
      '/health': {
        get: {
          summary: 'Database, Temporal, workers and chain watchers',
          responses: {
            '200': { description: 'Healthy', content: { 'application/json': { schema: z.looseObject({}) } } },
            '503': {
              description: 'The database or Temporal is down, or no worker polls',
              content: { 'application/json': { schema: z.looseObject({}) } },
            },
          },
        },
      },
      '/metrics': {
        get: {
          summary: 'Prometheus metrics of this process',
          responses: { '200': { description: 'Metrics', content: { 'text/plain': { schema: z.string() } } } },
        },
      },
      '/openapi.json': {
        get: {
          summary: 'This document',
          responses: { '200': { description: 'The OpenAPI document', content: json(z.looseObject({})) } },
        },
      },
    },
  });
}

/** The public checkout API the element calls: no key, CORS open, rate-limited per client. */
function publicCheckoutPaths(): ZodOpenApiPathsObject {
  const limited = {
    '429': {
      description: 'Too many requests from this client (see Retry-After)',
      content: json(ErrorResponse),
    },
  };
  const sessionPath = z.object({ id: z.uuid() });
  return {
    '/api/v1/checkout/{slug}': {
      get: {
        summary: 'What the element renders for a product (and an expected payment)',
        requestParams: {
          path: z.object({ slug: z.string() }),
          query: z.object({ expected_payment: z.uuid().optional() }),
        },
        responses: {
          '200': { description: 'The checkout', content: json(z.object({ checkout: CheckoutView })) },
          ...errors(404),
          ...limited,
        },
      },
    },
    '/api/v1/checkout/{slug}/sessions': {
      post: {
        summary: "Open (or update) the shopper's checkout session",
        requestParams: { path: z.object({ slug: z.string() }) },
        requestBody: { required: true, content: json(CheckoutSessionCreateBody) },
        responses: {
          '200': { description: 'The session', content: json(CheckoutSessionResponse) },
          ...errors(400, 404, 413, 415, 422),
          ...limited,
          '503': {
            description: 'The chain or the workflow service is unavailable',
            content: json(ErrorResponse),
          },
        },
      },
    },
    '/api/v1/checkout/sessions/{id}': {
      get: {
        summary: 'A checkout session',
        requestParams: { path: sessionPath },
        responses: {
          '200': { description: 'The session', content: json(CheckoutSessionResponse) },
          ...errors(404),
          ...limited,
        },
      },
    },
    '/api/v1/checkout/sessions/{id}/events': {
      get: {
        summary: 'Server-sent events: the session on every change',
        requestParams: { path: sessionPath },
        responses: {
          '200': { description: 'An event stream', content: { 'text/event-stream': { schema: z.string() } } },
          ...errors(404),
          ...limited,
        },
      },
    },
    '/api/v1/checkout/sessions/{id}/transactions': {
      post: {
        summary: "Submit the shopper's transaction hash",
        requestParams: { path: sessionPath },
        requestBody: { required: true, content: json(CheckoutTransactionBody) },
        responses: {
          '200': { description: 'The session', content: json(CheckoutSessionResponse) },
          ...errors(400, 404, 413, 415, 422),
          ...limited,
          '503': { description: 'The workflow service is unavailable', content: json(ErrorResponse) },
        },
      },
    },
  };
}

/** The pages: the hosted checkout, the demo shop, the sandbox KYC pages, the dev inbox. */
function pagePaths(deps: Pick<AppDeps, 'config'>): ZodOpenApiPathsObject {
  const html = (description: string) => ({
    description,
    content: { 'text/html': { schema: z.string() } },
  });
  const paths: ZodOpenApiPathsObject = {
    '/checkout/{slug}': {
      get: {
        summary: 'The hosted checkout page',
        requestParams: {
          path: z.object({ slug: z.string() }),
          query: z.object({ expected_payment: z.uuid().optional() }),
        },
        responses: {
          '200': html('The page'),
          // A page for an unknown checkout; the one error body for a path the service refuses outright.
          '404': {
            description: 'No such checkout',
            content: { 'text/html': { schema: z.string() }, ...json(ErrorResponse) },
          },
        },
      },
    },
    '/favicon.ico': {
      get: {
        summary: 'The icon',
        responses: { '200': { description: 'An icon', content: { 'image/x-icon': { schema: z.string() } } } },
      },
    },
  };
  if (deps.config.env !== 'production') {
    paths['/demo'] = {
      get: { summary: 'The demo shop (outside production)', responses: { '200': html('The page') } },
    };
  }
  if (deps.config.mail.devInboxDir) {
    paths['/dev/mail'] = {
      get: { summary: 'The development mail inbox', responses: { '200': html('The inbox') } },
    };
  }
  if (deps.config.areaB.sandboxEnabled) {
    const token = z.object({ token: z.string() });
    paths['/sandbox/kyc/{token}'] = {
      get: {
        summary: 'Sandbox only: the KYC page a user verifies on',
        requestParams: { path: token },
        responses: { '200': html('The page'), ...errors(404) },
      },
    };
    paths['/sandbox/kyc/{token}/submit'] = {
      post: {
        summary: 'Sandbox only: the KYC page submitted',
        requestParams: { path: token },
        responses: { '200': html('The page'), ...errors(404) },
      },
    };
  }
  return paths;
}

const userId = z.object({ id: z.uuid() });
const detailPath = z.object({ id: z.uuid(), detailId: z.uuid() });
const areaB = (op: ZodOpenApiOperationObject): ZodOpenApiOperationObject => ({
  security: [{ apiKey: [] }],
  ...op,
});
const ok = (description: string, schema: z.ZodType) => ({ '200': { description, content: json(schema) } });

/** Area B: users, KYC, payment details, Latam bank names, the account webhook endpoint and the sandbox. */
function areaBPaths(sandbox: boolean): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {
    '/users': {
      post: areaB({
        summary: 'Create a user (starts its KYC workflow)',
        requestBody: { required: true, content: json(UserCreateBody) },
        responses: { ...ok('The new user', UserResponse), ...errors(400, 401, 409, 415, 422) },
      }),
      get: areaB({
        summary: "List the account's users",
        responses: { ...ok('Users', UserListResponse), ...errors(401) },
      }),
    },
    '/users/{id}': {
      get: areaB({
        summary: 'Show a user',
        requestParams: { path: userId },
        responses: { ...ok('The user', UserResponse), ...errors(401, 404) },
      }),
    },
    '/users/{id}/kycs': {
      post: areaB({
        summary: 'Open a KYC session; the user verifies at the returned URL',
        requestParams: { path: userId },
        responses: { ...ok('The session URL', KycSessionResponse), ...errors(401, 404) },
      }),
    },
    '/users/{id}/payment_details': {
      post: areaB({
        summary: 'Create a payment detail (needs approved KYC for its currency and rail)',
        requestParams: { path: userId },
        requestBody: { required: true, content: json(PaymentDetailBody) },
        responses: {
          ...ok('The new payment detail', PaymentDetailResponse),
          ...errors(400, 401, 404, 415, 422),
        },
      }),
      get: areaB({
        summary: "List a user's payment details",
        requestParams: { path: userId },
        responses: { ...ok('Payment details', PaymentDetailListResponse), ...errors(401, 404) },
      }),
    },
    '/users/{id}/payment_details/validate': {
      post: areaB({
        summary: "Check a payment detail's format (not the account itself)",
        requestParams: { path: userId },
        requestBody: { required: true, content: json(PaymentDetailBody) },
        responses: {
          ...ok('The verdict', PaymentDetailValidationResponse),
          ...errors(400, 401, 404, 415, 422),
        },
      }),
    },
    '/users/{id}/payment_details/{detailId}': {
      get: areaB({
        summary: 'Show a payment detail',
        requestParams: { path: detailPath },
        responses: { ...ok('The payment detail', PaymentDetailResponse), ...errors(401, 404) },
      }),
    },
    '/users/{id}/payment_details/{detailId}/deactivate': {
      patch: areaB({
        summary: 'Deactivate a payment detail',
        requestParams: { path: detailPath },
        responses: { ...ok('The payment detail', PaymentDetailResponse), ...errors(401, 404) },
      }),
    },
    '/latam_bank_names': {
      get: areaB({
        summary: 'Bank names accepted as bank_name for a Latam country',
        requestParams: {
          query: z.object({
            country_code: z.enum(['AR', 'CO', 'MX', 'CL', 'PE']),
            rails: z.string().optional(),
          }),
        },
        responses: { ...ok('Bank names', LatamBankNamesResponse), ...errors(400, 401, 422) },
      }),
    },
    '/webhook_endpoint': {
      put: areaB({
        summary: 'Set the URL that receives kyc_update and payment_detail_update',
        requestBody: { required: true, content: json(WebhookEndpointBody) },
        responses: { ...ok('The endpoint', WebhookEndpointResponse), ...errors(400, 401, 415, 422) },
      }),
      get: areaB({
        summary: 'Show the webhook endpoint',
        responses: { ...ok('The endpoint', WebhookEndpointResponse), ...errors(401, 404) },
      }),
      delete: areaB({
        summary: 'Remove the webhook endpoint',
        responses: { ...ok('The removed endpoint', WebhookEndpointResponse), ...errors(401, 404) },
      }),
    },
  };
  if (!sandbox) return paths;
  return {
    ...paths,
    '/sandbox/users/{id}/kycs': {
      patch: areaB({
        summary: 'Sandbox only: force a KYC decision (applied asynchronously by the KYC workflow)',
        requestParams: { path: userId },
        requestBody: { required: true, content: json(SandboxKycBody) },
        responses: { '200': { description: 'Accepted' }, ...errors(400, 401, 404, 415, 422, 503) },
      }),
    },
    '/sandbox/users/{id}/payment_details/{detailId}': {
      patch: areaB({
        summary: "Sandbox only: force a payment detail's status",
        requestParams: { path: detailPath },
        requestBody: { required: true, content: json(SandboxPaymentDetailBody) },
        responses: {
          ...ok('The payment detail', PaymentDetailResponse),
          ...errors(400, 401, 404, 415, 422),
        },
      }),
    },
  };
}

const onrampPath = z.object({ id: z.uuid(), onrampId: z.uuid() });
const quotePath = z.object({ id: z.uuid(), quoteId: z.uuid() });
const offrampPath = z.object({ id: z.uuid(), quoteId: z.uuid(), offrampId: z.uuid() });
const userOfframpPath = z.object({ id: z.uuid(), offrampId: z.uuid() });
const unavailable = {
  '503': { description: 'Workflows are disabled or unreachable', content: json(ErrorResponse) },
};

/** Onramps, quotes and offramps; responses are the ramp schemas the integration tests parse replies with. */
function rampPaths(sandbox: boolean): ZodOpenApiPathsObject {
  const createOnramp = areaB({
    summary: 'Create an onramp: bank deposit instructions for fiat in, crypto out (`/onramp` also accepted)',
    requestParams: { path: userId },
    requestBody: { required: true, content: json(OnrampCreateBody) },
    responses: {
      ...ok('The new onramp, with deposit_instructions', OnrampResponse),
      ...errors(400, 401, 404, 409, 415, 422),
    },
  });
  const paths: ZodOpenApiPathsObject = {
    '/users/{id}/onramps': {
      post: createOnramp,
      get: areaB({
        summary: "List a user's onramps",
        requestParams: { path: userId },
        responses: { ...ok('Onramps, oldest first', OnrampListResponse), ...errors(401, 404) },
      }),
    },
    '/users/{id}/onramp': { post: createOnramp },
    '/users/{id}/onramps/{onrampId}': {
      get: areaB({
        summary: 'Show an onramp (without deposit_instructions)',
        requestParams: { path: onrampPath },
        responses: { ...ok('The onramp', OnrampResponse), ...errors(401, 404) },
      }),
    },
    '/sandbox/users/{id}/onramps/{onrampId}/deposit': {
      post: areaB({
        summary:
          "Sandbox only: the bank partner's deposit notice; stored, then credited by the onramp's workflow",
        requestParams: { path: onrampPath },
        requestBody: { required: true, content: json(SandboxDepositBody) },
        responses: {
          ...ok('The stored deposit notice', SandboxDepositResponse),
          ...errors(400, 401, 404, 409, 415, 422),
          ...unavailable,
        },
      }),
    },
    '/users/{id}/quotes': {
      post: areaB({
        summary: 'Create a quote with its own deposit address (starts its expiry timer)',
        requestParams: { path: userId },
        requestBody: { required: true, content: json(QuoteCreateBody) },
        responses: { ...ok('The new quote', QuoteResponse), ...errors(400, 401, 404, 409, 415, 422) },
      }),
    },
    '/users/{id}/quote/rate': {
      post: areaB({
        summary: 'Price one payout from the fiat or the token side (nothing is stored)',
        requestParams: { path: userId },
        requestBody: { required: true, content: json(QuoteRateBody) },
        responses: { ...ok('The price', QuoteRateResponse), ...errors(400, 401, 404, 415, 422) },
      }),
    },
    '/users/{id}/quotes/{quoteId}': {
      get: areaB({
        summary: 'Show a quote: the total required to deliver its offramps',
        requestParams: { path: quotePath },
        responses: { ...ok('The quote (spec 2.6)', QuoteResponse), ...errors(401, 404) },
      }),
    },
    '/users/{id}/quotes/{quoteId}/offramps': {
      post: areaB({
        summary: 'Add offramps (payouts to approved payment details) to an open quote',
        requestParams: { path: quotePath },
        requestBody: { required: true, content: json(OfframpsCreateBody) },
        responses: {
          ...ok('The new offramps', OfframpListResponse),
          ...errors(400, 401, 404, 409, 415, 422),
        },
      }),
    },
    '/users/{id}/quotes/{quoteId}/offramps/{offrampId}': {
      patch: areaB({
        summary: "Change an offramp's reference while it is initiated",
        requestParams: { path: offrampPath },
        requestBody: { required: true, content: json(OfframpUpdateBody) },
        responses: { ...ok('The offramp', OfframpResponse), ...errors(400, 401, 404, 415, 422) },
      }),
    },
    '/users/{id}/quotes/{quoteId}/offramps/{offrampId}/resend': {
      post: areaB({
        summary:
          'Pay a bounced offramp out again, to another approved payment detail of the same currency (applied by the workflow moments later)',
        requestParams: { path: offrampPath },
        requestBody: { required: true, content: json(OfframpResendBody) },
        responses: {
          ...ok('The offramp, still bounced, with its new payment detail', OfframpResponse),
          ...errors(400, 401, 404, 409, 415, 422),
        },
      }),
    },
    '/users/{id}/quotes/{quoteId}/offramps/{offrampId}/refund': {
      post: areaB({
        summary:
          "Refund a bounced offramp's tokens, fee included, to the deposit's sender or refund_address (applied by the workflow moments later)",
        requestParams: { path: offrampPath },
        requestBody: { required: true, content: json(OfframpRefundBody) },
        responses: {
          ...ok('The offramp, still bounced, with the refund requested', OfframpResponse),
          ...errors(400, 401, 404, 409, 415, 422),
        },
      }),
    },
    '/users/{id}/quotes/{quoteId}/execute': {
      post: areaB({
        summary: 'Execute a quote funded on chain: verifies the deposit, then starts the payouts',
        requestParams: { path: quotePath },
        requestBody: { required: true, content: json(QuoteExecuteBody) },
        responses: {
          ...ok('The executed quote, its offramps still initiated', QuoteResponse),
          ...errors(400, 401, 404, 409, 415, 422),
          ...unavailable,
        },
      }),
    },
    '/users/{id}/offramps': {
      get: areaB({
        summary: "List a user's offramps across quotes",
        requestParams: { path: userId },
        responses: { ...ok('Offramps, oldest first', OfframpListResponse), ...errors(401, 404) },
      }),
    },
    '/users/{id}/offramps/{offrampId}': {
      get: areaB({
        summary: 'Show an offramp',
        requestParams: { path: userOfframpPath },
        responses: { ...ok('The offramp', OfframpResponse), ...errors(401, 404) },
      }),
    },
  };
  if (!sandbox) delete paths['/sandbox/users/{id}/onramps/{onrampId}/deposit'];
  return paths;
}
