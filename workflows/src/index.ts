/** Public surface of the workflows package for the server, scripts and tests. */
export { type Activities, type ActivityDeps, createActivities } from './activities.ts';
export * from './chainWatcher/shared.ts';
export { ensureChainWatchers } from './chainWatcher/start.ts';
export { type CheckoutActivityDeps, createCheckoutActivities } from './checkout/activities.ts';
export { closeCheckoutSession } from './checkout/close.ts';
export { walletPaymentSummary } from './checkout/paymentSummary.ts';
export {
  productPayments,
  walletPayment,
  walletPayments,
  walletPaymentsCsv,
  walletPaymentTimeline,
} from './checkout/payments.ts';
export * from './checkout/products.ts';
export { viewSession } from './checkout/sessionView.ts';
export * from './checkout/shared.ts';
export {
  type OpenedSession,
  type OpenSessionDeps,
  openCheckoutSession,
  type SessionWindows,
} from './checkout/start.ts';
export * from './checkout/submit.ts';
export * from './checkout/view.ts';
export { ensureDepositSweepers } from './depositSweep/start.ts';
export {
  type AnySearchAttributeKey,
  type DevServerLogLevel,
  type DevServerOptions,
  findFreePort,
  startTemporalDevServer,
  type TemporalDevServer,
} from './devServer.ts';
export { queueEmailResend } from './emailResend/resend.ts';
export * from './finalFailure.ts';
export { type FinalFailure, finalFailureInterceptors, toFinalFailure } from './finalFailureInterceptor.ts';
export { collectWorkflowCalls, queueWorkflowCall, type WorkflowCall } from './handOver/queueWorkflowCall.ts';
export { createHandOver, type HandOver, type HandOverSweep } from './handOverLoop.ts';
export { createKycActivities, type KycActivityDeps } from './kyc/activities.ts';
export { recordKycPageStep } from './kyc/page.ts';
export * from './kyc/shared.ts';
export { queueKycEvent } from './kyc/start.ts';
export { createUser } from './kyc/users.ts';
export { createOnrampActivities, type OnrampActivityDeps } from './onramp/activities.ts';
export * from './onramp/create.ts';
export * from './onramp/deposits.ts';
export * from './onramp/shared.ts';
export { onrampLifecycleInput } from './onramp/start.ts';
export * from './paymentDetail/detail.step.ts';
export { createQuoteActivities, type QuoteActivityDeps } from './quote/activities.ts';
export * from './quote/bounces.ts';
export * from './quote/create.ts';
export * from './quote/execute.ts';
export * from './quote/offramps.ts';
export {
  createSandboxPayoutPartner,
  type PayoutOutcome,
  type PayoutPartner,
  sandboxPayoutMagicCents,
} from './quote/payoutPartner.ts';
export { createQuoteUpdate, recordQuoteRefund } from './quote/refunds.ts';
export * from './quote/shared.ts';
export { quoteLifecycleInput } from './quote/start.ts';
export type { RampChains } from './rampChains.ts';
export { cancelRefund, changeRefund } from './refund/change.ts';
export { claimRefund } from './refund/claim.ts';
export { type RefundSubject, type RequestRefundDeps, requestRefund } from './refund/request.ts';
export * from './refund/shared.ts';
export { listWalletRefunds, viewRefundClaim, viewRefundPayment } from './refund/view.ts';
export type { WorkerResources } from './resources.ts';
export { mineTestChain } from './sandbox/mine.ts';
export { simulateRefundOutcome } from './sandbox/refundOutcomes.ts';
export { simulateSessionOutcome } from './sandbox/sessionOutcomes.ts';
export type { SandboxDeps } from './sandbox/shared.ts';
export * from './shared.ts';
export { createSmokeActivities } from './smoke/activities.ts';
export * from './summaries.ts';
export { countLivePollers, livePollerWindowMs } from './taskQueuePollers.ts';
export {
  attachToExpectedPayment,
  attachToResolvedPayment,
  dismissUnmatched,
  listWalletUnmatched,
  presentUnmatched,
} from './unmatched/actions.step.ts';
export { unmatchedWorkflowId } from './unmatched/shared.ts';
export { sendAccountTestEvent } from './webhookDelivery/accountTestEvent.ts';
export { createWebhookActivities, type WebhookActivityDeps } from './webhookDelivery/activities.ts';
export { isForbiddenWebhookHost } from './webhookDelivery/addressPolicy.ts';
export { redeliverFailedWebhooks, redeliverWebhook } from './webhookDelivery/redeliver.ts';
export * from './webhookDelivery/shared.ts';
export { queueDeliveryStart } from './webhookDelivery/start.ts';
export { sendProductTestEvent } from './webhookDelivery/testEvent.ts';
export {
  bundleWorkflows,
  type CreateWorkerOptions,
  createWorker,
  type InstallRuntimeOptions,
  installRuntime,
  type WorkflowBundleFile,
  workflowsPath,
} from './worker.ts';
