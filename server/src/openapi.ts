/** The OpenAPI 3.1 document, generated from the same zod schemas the handlers validate with. */
import {
  ErrorResponse,
  ProductCreateBody,
  ProductListResponse,
  ProductResponse,
  ProductUpdateBody,
  ResolvedPaymentListResponse,
  UpdatedProductResponse,
  WebhookDeliveryListResponse,
  WebhookDeliveryResponse,
  WebhookSecretResponse,
} from '@checkout/core';
import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject } from 'zod-openapi';
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

const productId = z.object({ product_id: z.uuid() });

const areaA = (op: ZodOpenApiOperationObject): ZodOpenApiOperationObject => ({
  security: [{ apiKey: [] }],
  ...op,
});

/** Builds the document once at start. */
export function buildOpenApiDocument(deps: Pick<AppDeps, 'config'>): ReturnType<typeof createDocument> {
  const update = areaA({
    summary: 'Enable or disable a product',
    requestParams: { header: merchantHeaders, path: productId },
    requestBody: { content: json(ProductUpdateBody) },
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
          requestBody: { content: json(ProductCreateBody) },
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
      '/api/v1/products/{product_id}': { patch: update },
      '/api/v1/product/{product_id}': {
        patch: { ...update, summary: 'Enable or disable a product (alias)' },
      },
      '/api/v1/products/{product_id}/resolved_payments': {
        get: areaA({
          summary: "List a product's resolved payments",
          requestParams: { header: merchantHeaders.pick({ 'X-ADDRESS': true }), path: productId },
          responses: {
            '200': { description: 'Resolved payments', content: json(ResolvedPaymentListResponse) },
            ...errors(400, 401, 403, 404),
          },
        }),
      },
      '/api/v1/products/{product_id}/webhook_deliveries': {
        get: areaA({
          summary: "List a product's webhook deliveries, newest first, with every attempt",
          requestParams: { header: merchantHeaders.pick({ 'X-ADDRESS': true }), path: productId },
          responses: {
            '200': { description: 'Webhook deliveries', content: json(WebhookDeliveryListResponse) },
            ...errors(400, 401, 403, 404),
          },
        }),
      },
      '/api/v1/webhook_deliveries/{delivery_id}/redeliver': {
        post: areaA({
          summary: 'Send a delivery again: same bytes, same URL, linked to the original',
          requestParams: { header: merchantHeaders, path: z.object({ delivery_id: z.uuid() }) },
          responses: {
            '200': { description: 'The new delivery', content: json(WebhookDeliveryResponse) },
            ...errors(400, 401, 403, 404, 409),
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
            ...errors(400, 401, 403, 409),
          },
        }),
      },
      '/health': {
        get: {
          summary: 'Database and Temporal status',
          responses: { '200': { description: 'Healthy' }, '503': { description: 'A dependency is down' } },
        },
      },
    },
  });
}
