/**
 * Starts a delivery's workflow from another workflow (workflow code). The delivery outlives its starter,
 * and starting one that is already running is harmless: a retried step may hand on the same delivery twice.
 */
import { type SearchAttributePair, WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, startChild, workflowInfo } from '@temporalio/workflow';
import { MerchantWallet } from '../shared.ts';
import { webhookTitle } from '../summaries.ts';
import { type WebhookDeliveryInput, webhookWorkflowId } from './shared.ts';
import { webhookDelivery } from './workflow.ts';

/** What a starter may already know about the delivery (saves the delivery a lookup). */
export interface DeliveryStartExtras {
  typedSearchAttributes?: SearchAttributePair[];
  memo?: Record<string, unknown>;
}

/**
 * The Temporal UI's summary of a delivery, from its memo when the starter knows it: `Webhook
 * resolved_payment.created → shop.example` (the host only, as deliveries started by the API show it).
 */
function summaryOf(memo: Record<string, unknown> | undefined): { staticSummary?: string } {
  if (typeof memo?.eventType !== 'string' || typeof memo.urlHost !== 'string') return {};
  return { staticSummary: webhookTitle(memo) };
}

/** The search attributes the starter gives, with its merchant's wallet (a checkout's) when it has one. */
function attributesOf(extras: DeliveryStartExtras): { typedSearchAttributes?: SearchAttributePair[] } {
  const wallet = workflowInfo().typedSearchAttributes.get(MerchantWallet);
  const given = extras.typedSearchAttributes ?? [];
  if (!wallet) return given.length > 0 ? { typedSearchAttributes: given } : {};
  return { typedSearchAttributes: [...given, { key: MerchantWallet, value: wallet }] };
}

/** Starts the delivery's workflow unless it is running already; a null id does nothing. */
export async function startDeliveryChild(
  input: WebhookDeliveryInput | string | null,
  extras: DeliveryStartExtras = {},
): Promise<void> {
  if (input === null) return;
  const args: WebhookDeliveryInput = typeof input === 'string' ? { deliveryId: input } : input;
  try {
    await startChild(webhookDelivery, {
      workflowId: webhookWorkflowId(args.deliveryId),
      args: [args],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      ...summaryOf(extras.memo),
      ...extras,
      ...attributesOf(extras),
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
