/**
 * Types and names of the `quoteLifecycle` workflow, shared by the workflow, its activities and the API
 * that starts it. Safe to import inside the workflow sandbox.
 */

/** Workflow type name, as registered from workflows.ts. */
export const quoteWorkflowType = 'quoteLifecycle';

/** Event type of the webhook sent on every offramp status change. */
export const offrampUpdateEvent = 'offramp_update';

/** Input of `quoteLifecycle`. */
export interface QuoteLifecycleInput {
  quoteId: string;
  merchantId: string;
  userId: string;
}

/** Result of `quoteLifecycle`: the quote's final status and each offramp's. */
export interface QuoteLifecycleResult {
  quoteId: string;
  status: string;
  offramps: Array<{ id: string; status: string }>;
}

/** Signature of the workflow function, for typed starts by name. */
export type QuoteLifecycleWorkflow = (input: QuoteLifecycleInput) => Promise<QuoteLifecycleResult>;

/** The outcome of one offramp step: the status now stored, and the webhook delivery a change created. */
export interface OfframpStep {
  offrampId: string;
  status: string;
  webhookDeliveryId: string | null;
}

/** An offramp handed to the payout partner, and how long to wait before asking for its outcome. */
export interface OfframpSubmission extends OfframpStep {
  settleAfterMs: number;
}

/** What the quote's payouts start from. */
export interface QuotePayoutStart {
  quoteStatus: string;
  offramps: OfframpStep[];
}

/** Activities of the quote family. */
export interface QuoteActivities {
  beginQuotePayouts(input: { quoteId: string }): Promise<QuotePayoutStart>;
  submitOfframpPayout(input: { offrampId: string }): Promise<OfframpSubmission>;
  settleOfframpPayout(input: { offrampId: string }): Promise<OfframpStep>;
  completeQuote(input: { quoteId: string }): Promise<{ quoteStatus: string }>;
}

/** Error type thrown while the quote row is not visible yet (its transaction may not have committed). */
export const quoteNotFound = 'QuoteNotFound';

/** Offramp statuses no payout step leaves. */
export const terminalOfframpStatuses: readonly string[] = ['fiat_sent', 'bounced', 'failed'];

/** Workflow id of a quote: a business key, so a quote never has two. */
export function quoteWorkflowId(quoteId: string): string {
  return `quote-${quoteId}`;
}
