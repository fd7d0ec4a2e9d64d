/** Workflow entry module: the bundler registers every function exported here as a workflow type. */
export { chainWatcher } from './chainWatcher/workflow.ts';
export { checkoutSession } from './checkout/workflow.ts';
export { depositSweeper } from './depositSweep/workflow.ts';
export { emailResend } from './emailResend/workflow.ts';
export { kycOnboarding } from './kyc/workflow.ts';
export { onrampLifecycle } from './onramp/workflow.ts';
export { quoteLifecycle } from './quote/workflow.ts';
export { refund } from './refund/workflow.ts';
export { paymentReorg } from './reorg/workflow.ts';
export { ping, sleepingPing } from './smoke/workflow.ts';
export { unmatchedTransfer } from './unmatched/workflow.ts';
export { webhookDelivery } from './webhookDelivery/workflow.ts';
