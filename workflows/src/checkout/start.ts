/**
 * Client-side calls of the checkout family: handing a shopper's transaction hash to the session's
 * workflow within a bound. Used by the API (the shopper waits) and by the reconciler (hashes the API
 * recorded while Temporal or its workers were away).
 */
import { type Client, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { type CheckoutState, checkoutWorkflowId, submitTransactionUpdate } from './shared.ts';

/** What became of a hash handed to its checkout. */
export type HashHandover =
  /** The workflow took it; `state` is the session as the workflow saw it after. */
  | { outcome: 'taken'; state: CheckoutState }
  /** The workflow refused it (expired, closed, another hash, checked before) or is gone; `error` says why. */
  | { outcome: 'refused'; error: Error }
  /** Temporal answers, but no worker took the hash within the wait: it is handed over again later. */
  | { outcome: 'no_worker' }
  /** Temporal does not answer. */
  | { outcome: 'temporal_unavailable'; error: unknown };

/** Bounds of {@link handHashToCheckout}. */
export interface HashHandoverBounds {
  /** How long to wait for the workflow's answer (it may record the payment before answering). */
  waitMs: number;
  /** When to ask whether Temporal answers at all, if the workflow has not answered by then. */
  probeAfterMs: number;
  /** Bound of that question. */
  probeMs: number;
}

const defaultBounds: HashHandoverBounds = { waitMs: 10_000, probeAfterMs: 1_500, probeMs: 2_000 };

/**
 * Submits `txHash` to the checkout of `expectedPaymentId` as an Update (deduplicated by the hash, so a
 * repeat is harmless), and answers within about `waitMs`: a dead Temporal is found by a probe after
 * `probeAfterMs`, and missing workers by the wait running out.
 */
export async function handHashToCheckout(
  client: Client,
  expectedPaymentId: string,
  txHash: string,
  bounds: Partial<HashHandoverBounds> = {},
): Promise<HashHandover> {
  const { waitMs, probeAfterMs, probeMs } = { ...defaultBounds, ...bounds };
  const abort = new AbortController();
  const timers: NodeJS.Timeout[] = [];
  const after = <T>(ms: number, value: () => Promise<T> | T) =>
    new Promise<T>((resolve, reject) => {
      timers.push(
        setTimeout(() => {
          Promise.resolve().then(value).then(resolve, reject);
        }, ms),
      );
    });
  // A workflow task that failed while the update arrived (a signal came in during it, UnhandledCommand)
  // fails the update with FAILED_PRECONDITION: the task is retried at once, and so is the update, under
  // its same id.
  const submit = async (): Promise<CheckoutState> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await client.workflow
          .getHandle(checkoutWorkflowId(expectedPaymentId))
          .executeUpdate(submitTransactionUpdate, { args: [txHash], updateId: `tx-${txHash}` });
      } catch (error) {
        if (attempt >= 20 || abort.signal.aborted || !isWorkflowTaskFailure(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * (attempt + 1)));
      }
    }
  };
  const update = client.connection.withAbortSignal(abort.signal, submit).then(
    (state): HashHandover => ({ outcome: 'taken', state }),
    (error: unknown): HashHandover => {
      if (abort.signal.aborted) return { outcome: 'no_worker' };
      if (error instanceof WorkflowUpdateFailedError || error instanceof WorkflowNotFoundError) {
        return { outcome: 'refused', error };
      }
      return { outcome: 'temporal_unavailable', error };
    },
  );
  const probe = after(probeAfterMs, async (): Promise<HashHandover | undefined> => {
    try {
      await client.connection.withDeadline(Date.now() + probeMs, () =>
        client.connection.workflowService.getSystemInfo({}),
      );
      return undefined;
    } catch (error) {
      return { outcome: 'temporal_unavailable', error };
    }
  }).then((down) => down ?? new Promise<never>(() => {}));
  const timeout = after(waitMs, (): HashHandover => ({ outcome: 'no_worker' }));
  try {
    return await Promise.race([update, probe, timeout]);
  } finally {
    for (const timer of timers) clearTimeout(timer);
    abort.abort();
  }
}

/** The update failed because the workflow's task failed meanwhile (FAILED_PRECONDITION): worth another try. */
function isWorkflowTaskFailure(error: unknown): boolean {
  const cause = (error as { cause?: { code?: number; details?: string } } | undefined)?.cause;
  return cause?.code === 9 && /workflow task failure/i.test(cause.details ?? '');
}

/** A Temporal call that did not answer within its bound. */
export class TemporalCallTimeout extends Error {
  constructor(ms: number) {
    super(`Temporal did not answer within ${ms} ms`);
    this.name = 'TemporalCallTimeout';
  }
}

/**
 * Runs a client call and gives up after `ms`, whatever the client's own retries are doing (a retry
 * waiting on its backoff would otherwise hold the answer past any deadline); the call is aborted then.
 */
export async function callWithin<T>(client: Client, ms: number, call: () => Promise<T>): Promise<T> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      client.connection.withAbortSignal(abort.signal, call),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new TemporalCallTimeout(ms)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}
