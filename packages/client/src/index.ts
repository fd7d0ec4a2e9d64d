/**
 * The merchant SDK: a typed client for the service's merchant API (generated from its OpenAPI document) and
 * what a merchant's server needs to trust the webhooks it receives.
 */

// The service's own signer (packages/core), re-exported: the SDK verifies what the service signs.
export * from '#webhookSignature';
export {
  type CheckoutApiError,
  type CheckoutClient,
  type CheckoutClientOptions,
  type CheckoutPaths,
  createCheckoutClient,
  retryAfterMs,
  retryingFetch,
} from './client.ts';
export type { components, operations, paths } from './generated/schema.ts';
