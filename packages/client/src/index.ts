/** Merchant SDK: what a merchant's server needs to trust the webhooks it receives. */
export {
  defaultWebhookToleranceSeconds,
  type VerifyWebhookSignatureParameters,
  verifyWebhookSignature,
  type WebhookBody,
  type WebhookVerification,
  type WebhookVerificationFailure,
  webhookHeaderNames,
} from '@checkout/core';
