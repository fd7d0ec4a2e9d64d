/**
 * Types, signals and names of the `onrampLifecycle` workflow, shared by the workflow, its activities and
 * the API that signals it. Safe to import inside the workflow sandbox.
 */
import { defineSignal } from '@temporalio/workflow';

/** Workflow type name, as registered from bundle.workflow.ts. */
export const onrampWorkflowType = 'onrampLifecycle';

/** A fiat deposit the bank partner reported; `depositId` makes a repeated report harmless. */
export interface OnrampDeposit {
  depositId: string;
  /** Fiat, exact decimal string. */
  amount: string;
}

/** Input of `onrampLifecycle`. */
export interface OnrampLifecycleInput {
  onrampId: string;
  merchantId: string;
  userId: string;
  /** ISO time after which an unfunded onramp expires. */
  expiresAt: string;
  /** Deposits received but not yet credited by the previous run. */
  pending?: OnrampDeposit[];
}

/** Result of `onrampLifecycle`: the status it ended with. */
export interface OnrampLifecycleResult {
  onrampId: string;
  status: string;
}

/** Signature of the workflow function, for typed starts by name. */
export type OnrampLifecycleWorkflow = (input: OnrampLifecycleInput) => Promise<OnrampLifecycleResult>;

/** The outcome of one step: the status now stored, and the webhook delivery a change created. */
export interface OnrampStep {
  status: string;
  webhookDeliveryId: string | null;
}

/** Where the treasury transfer stands. */
export interface OnrampTransferCheck extends OnrampStep {
  transfer: 'pending' | 'confirmed' | 'reverted' | 'none';
}

/** Returns made through the bank partner, and the webhooks their changes created. */
export interface OnrampRefundsStep {
  status: string;
  webhookDeliveryIds: string[];
}

/** Activities of the onramp family. */
export interface OnrampActivities {
  loadOnramp(input: { onrampId: string }): Promise<OnrampStep>;
  expireOnramp(input: { onrampId: string }): Promise<OnrampStep>;
  creditOnrampDeposit(input: { onrampId: string; deposit: OnrampDeposit }): Promise<OnrampStep>;
  sendOnrampCrypto(input: { onrampId: string }): Promise<OnrampStep>;
  checkOnrampTransfer(input: { onrampId: string }): Promise<OnrampTransferCheck>;
  /** Returns every pending refund of the onramp through the bank partner (each once, by its key). */
  returnOnrampRefunds(input: { onrampId: string }): Promise<OnrampRefundsStep>;
  /**
   * Notes a step that failed for good on the onramp (its `status_message`, the status kept) with an
   * `onramp_update` webhook.
   */
  recordOnrampStepFailure(input: { onrampId: string; message: string }): Promise<OnrampStep>;
}

/** Memo key of the last step that failed for good, shown in the Temporal UI. */
export { failedStepMemo as onrampFailedStepMemo } from '../finalFailure.ts';

/** Error type thrown while the onramp row is not visible yet (its transaction may not have committed). */
export const onrampNotFound = 'onramp_not_found';

/** Delivers the bank partner's deposit notification. */
export const onrampDepositSignal = defineSignal<[OnrampDeposit]>('onrampDeposit');

/** Workflow id of an onramp: a business key, so an onramp never has two. */
export function onrampWorkflowId(onrampId: string): string {
  return `onramp-${onrampId}`;
}
