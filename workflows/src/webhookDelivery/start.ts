/** Starting a delivery's workflow from the API or an event's workflow activity (client side). */
import { type Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { WorkflowSummary } from '../shared.ts';
import { type WebhookDeliveryWorkflow, webhookDeliveryWorkflowType, webhookStartOptions } from './shared.ts';

/**
 * Starts the workflow of a delivery row already committed (or about to be: the first activity waits
 * briefly for it). Starting twice is harmless: a running workflow is reused, a finished one is left alone.
 */
export async function startWebhookDelivery(
  client: Client,
  deliveryId: string,
  taskQueue: string,
  summary?: WorkflowSummary,
): Promise<void> {
  try {
    await client.workflow.start<WebhookDeliveryWorkflow>(webhookDeliveryWorkflowType, {
      ...webhookStartOptions(deliveryId, taskQueue),
      ...summary,
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
