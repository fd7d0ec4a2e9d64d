/** Starting a quote's `quoteLifecycle` workflow from the API (client side). */
import type { Client } from '@temporalio/client';
import {
  type QuoteLifecycleInput,
  type QuoteLifecycleWorkflow,
  quoteWorkflowId,
  quoteWorkflowType,
} from './shared.ts';

/** Starts the executed quote's payouts; a running lifecycle is reused. */
export async function startQuoteLifecycle(
  client: Client,
  taskQueue: string,
  input: QuoteLifecycleInput,
): Promise<void> {
  await client.workflow.start<QuoteLifecycleWorkflow>(quoteWorkflowType, {
    workflowId: quoteWorkflowId(input.quoteId),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
}
