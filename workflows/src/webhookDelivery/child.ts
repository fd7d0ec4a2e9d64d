/**
 * Starts a delivery's workflow from another workflow (workflow code). The delivery outlives its starter,
 * and starting one that is already running is harmless: a retried step may hand on the same delivery twice.
 */
import { type SearchAttributePair, WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, startChild } from '@temporalio/workflow';
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
  const eventType = memo?.eventType;
  const urlHost = memo?.urlHost;
  if (typeof eventType !== 'string' || typeof urlHost !== 'string') return {};
  return { staticSummary: `Webhook ${eventType} → ${urlHost || 'invalid URL'}` };
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
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
