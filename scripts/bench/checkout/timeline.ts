/**
 * Where a payment's time goes, read back from Temporal: the checkout workflow's history and its
 * webhook-delivery child's, as milestones from the receipt to the webhook, then the median of each
 * step between consecutive milestones over the sampled payments.
 */
import type { Client } from '@temporalio/client';
import type { PaymentTiming } from './flow.ts';

type Timestamp =
  | { seconds?: number | { toNumber(): number } | null; nanos?: number | null }
  | null
  | undefined;

interface HistoryEvent {
  eventId?: number | { toNumber(): number } | null;
  eventTime?: Timestamp;
  activityTaskScheduledEventAttributes?: { activityType?: { name?: string | null } | null } | null;
  activityTaskStartedEventAttributes?: { scheduledEventId?: number | { toNumber(): number } | null } | null;
  activityTaskCompletedEventAttributes?: { scheduledEventId?: number | { toNumber(): number } | null } | null;
  workflowExecutionUpdateAcceptedEventAttributes?: unknown;
  startChildWorkflowExecutionInitiatedEventAttributes?: { workflowId?: string | null } | null;
  childWorkflowExecutionStartedEventAttributes?: unknown;
  workflowTaskStartedEventAttributes?: unknown;
}

/** One step between consecutive milestones, summarised over the sampled payments. */
export interface Step {
  from: string;
  to: string;
  /** How many sampled payments went through this step. */
  count: number;
  p50Ms: number;
  p95Ms: number;
}

function num(value: number | { toNumber(): number } | null | undefined): number {
  if (value === null || value === undefined) return 0;
  return typeof value === 'number' ? value : value.toNumber();
}

function ms(ts: Timestamp): number {
  return num(ts?.seconds) * 1000 + (ts?.nanos ?? 0) / 1e6;
}

function milestones(events: HistoryEvent[], prefix: string, after: number): Array<[string, number]> {
  const names = new Map<number, string>();
  const out: Array<[string, number]> = [];
  let workflowTasks = 0;
  for (const event of events) {
    const at = ms(event.eventTime);
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled) names.set(num(event.eventId), scheduled.activityType?.name ?? 'activity');
    if (at < after) continue;
    const started = event.activityTaskStartedEventAttributes;
    const completed = event.activityTaskCompletedEventAttributes;
    const name = (id: number | { toNumber(): number } | null | undefined) => names.get(num(id)) ?? 'activity';
    // The long chain scan runs beside the payment and ends cancelled; it is not a step of it.
    if (scheduled && scheduled.activityType?.name !== 'scanForPayment')
      out.push([`${prefix}${scheduled.activityType?.name ?? 'activity'} scheduled`, at]);
    else if (started && name(started.scheduledEventId) !== 'scanForPayment')
      out.push([`${prefix}${name(started.scheduledEventId)} started`, at]);
    else if (completed && name(completed.scheduledEventId) !== 'scanForPayment')
      out.push([`${prefix}${name(completed.scheduledEventId)} completed`, at]);
    else if (event.workflowExecutionUpdateAcceptedEventAttributes)
      out.push([`${prefix}hash update accepted`, at]);
    else if (event.startChildWorkflowExecutionInitiatedEventAttributes)
      out.push([`${prefix}child workflow initiated`, at]);
    else if (event.childWorkflowExecutionStartedEventAttributes)
      out.push([`${prefix}child workflow started`, at]);
    else if (event.workflowTaskStartedEventAttributes && prefix !== '' && workflowTasks++ === 0)
      out.push([`${prefix}first workflow task started`, at]);
  }
  return out;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

/** Reads the histories of `samples` (bounded in count and time) and summarises the steps. */
export async function breakDown(
  client: Client,
  samples: PaymentTiming[],
  deadlineMs: number,
): Promise<{ steps: Step[]; sampled: number }> {
  const durations = new Map<string, number[]>();
  const offsets = new Map<string, number[]>();
  let sampled = 0;
  for (const sample of samples) {
    if (Date.now() > deadlineMs) break;
    try {
      const checkout = await client.workflow.getHandle(`checkout-${sample.expectedPaymentId}`).fetchHistory();
      const events = (checkout.events ?? []) as HistoryEvent[];
      const points: Array<[string, number]> = [
        ['receipt returned', sample.minedAt],
        ['hash submit answered', sample.submittedAt],
        ...milestones(events, '', sample.minedAt - 1_000),
      ];
      const childId = events.find((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)
        ?.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId;
      if (childId) {
        const child = await client.workflow.getHandle(childId).fetchHistory();
        points.push(...milestones((child.events ?? []) as HistoryEvent[], 'webhook: ', 0));
      }
      points.push(['webhook received', sample.webhookAt]);
      points.sort((a, b) => a[1] - b[1]);
      for (let i = 1; i < points.length; i++) {
        const [from, start] = points[i - 1]!;
        const [to, end] = points[i]!;
        const key = `${from} → ${to}`;
        const list = durations.get(key) ?? [];
        list.push(end - start);
        durations.set(key, list);
        const starts = offsets.get(key) ?? [];
        starts.push(start - sample.minedAt);
        offsets.set(key, starts);
      }
      sampled++;
    } catch {
      // A history that cannot be read leaves the sample out.
    }
  }
  const medianOffset = (key: string) =>
    quantile(
      [...(offsets.get(key) ?? [])].sort((a, b) => a - b),
      0.5,
    );
  const steps = [...durations.entries()]
    // In the order a typical payment takes them.
    .sort(([a], [b]) => medianOffset(a) - medianOffset(b))
    .map(([key, list]) => {
      const sorted = [...list].sort((a, b) => a - b);
      const [from = '', to = ''] = key.split(' → ');
      return {
        from,
        to,
        count: list.length,
        p50Ms: Math.round(quantile(sorted, 0.5) * 10) / 10,
        p95Ms: Math.round(quantile(sorted, 0.95) * 10) / 10,
      };
    });
  return { steps, sampled };
}
