/** The workflow call of a delivery queued by the API (deliveries of workflows are their children). */
import type { Database, WebhookDeliveryRow } from '@checkout/db';
import type { Kysely } from 'kysely';
import { queueWorkflowCall, shown } from '../handOver/queueWorkflowCall.ts';
import { webhookWorkflowSummary } from '../summaries.ts';
import { webhookDeliveryWorkflowType, webhookWorkflowId } from './shared.ts';

/**
 * Queues the start of a delivery's workflow: a running one is reused, a finished one never started again.
 * With the delivery's row, the Temporal UI shows its summary from the start (otherwise the workflow sets it).
 */
export function queueDeliveryStart(
  db: Kysely<Database>,
  deliveryId: string,
  delivery?: Pick<WebhookDeliveryRow, 'id' | 'event_type' | 'url' | 'subject_id' | 'redelivery_of'>,
): Promise<string> {
  return queueWorkflowCall(db, {
    kind: 'start',
    workflowType: webhookDeliveryWorkflowType,
    workflowId: webhookWorkflowId(deliveryId),
    call: {
      args: [{ deliveryId }],
      once: true,
      ...shown(delivery ? webhookWorkflowSummary(delivery) : undefined),
    },
  });
}
