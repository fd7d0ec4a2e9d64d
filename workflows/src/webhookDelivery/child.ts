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
      ...extras,
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
