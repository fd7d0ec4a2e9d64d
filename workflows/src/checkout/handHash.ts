/**
 * Handing a shopper's transaction hash to its checkout's workflow within a bound: an Update (deduplicated by
 * the hash) that also starts the checkout while its queued start has not reached Temporal yet
 * (update-with-start). Used by the API (the shopper waits) and by the hand-over's sweep (hashes recorded
 * while Temporal or its workers were away).
 */
import { type Database, findStartCall, markWorkflowCallTaken } from '@checkout/db';
import {
  type Client,
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
} from '@temporalio/client';
import type { Kysely } from 'kysely';
import { startOptionsOf } from '../handOver/dispatcher.ts';
import { type CheckoutState, checkoutWorkflowId, submitTransactionUpdate } from './shared.ts';

/** What became of a hash handed to its checkout. */
export type HashHandover =
  /** The workflow took it; `state` is the session as the workflow saw it after. */
  | { outcome: 'taken'; state: CheckoutState }
  /** The workflow refused it (expired, closed, another hash, checked before) or has ended; `error` says why. */
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

/** What handing a hash to its checkout needs: the checkout's start call is read to start it if need be. */
export interface HashHandoverDeps {
  db: Kysely<Database>;
  client: Client;
  taskQueue: string;
}

/**
 * Submits `txHash` to the checkout of `expectedPaymentId` as an Update (deduplicated by the hash, so a
 * repeat is harmless) that also starts the checkout when its queued start has not reached Temporal yet
 * (update-with-start), and answers within about `waitMs`: a dead Temporal is found by a probe after
 * `probeAfterMs`, and missing workers by the wait running out.
 */
export async function handHashToCheckout(
  deps: HashHandoverDeps,
  expectedPaymentId: string,
  txHash: string,
  bounds: Partial<HashHandoverBounds> = {},
): Promise<HashHandover> {
  const { client } = deps;
  const { waitMs, probeAfterMs, probeMs } = { ...defaultBounds, ...bounds };
  const workflowId = checkoutWorkflowId(expectedPaymentId);
  const start = await findStartCall(deps.db, workflowId);
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
  const updateOptions = { args: [txHash] as [string], updateId: `tx-${txHash}` };
  const update = () =>
    client.workflow.getHandle(workflowId).executeUpdate(submitTransactionUpdate, updateOptions);
  let startPending = start !== undefined && start.taken_at === null;
  // While its queued start has not reached Temporal, the hash starts the checkout (update-with-start). A
  // checkout that exists already (the start was made meanwhile) answers the plain Update.
  const once = async (): Promise<CheckoutState> => {
    if (!start || !startPending) return update();
    try {
      const state = await client.workflow.executeUpdateWithStart(submitTransactionUpdate, {
        ...updateOptions,
        startWorkflowOperation: new WithStartWorkflowOperation(start.workflow_type, {
          ...startOptionsOf(start, deps.taskQueue),
          workflowIdConflictPolicy: 'USE_EXISTING',
        }),
      });
      startPending = false;
      await markWorkflowCallTaken(deps.db, start.id);
      return state;
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      startPending = false;
      await markWorkflowCallTaken(deps.db, start.id);
      return update();
    }
  };
  // A workflow task that failed while the update arrived (a signal came in during it, UnhandledCommand)
  // fails the update with FAILED_PRECONDITION: the task is retried at once, and so is the update, under
  // its same id.
  const submit = async (): Promise<CheckoutState> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await once();
      } catch (error) {
        if (attempt >= 20 || abort.signal.aborted || !isWorkflowTaskFailure(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * (attempt + 1)));
      }
    }
  };
  const answer = client.connection.withAbortSignal(abort.signal, submit).then(
    (state): HashHandover => ({ outcome: 'taken', state }),
    (error: unknown): HashHandover => {
      if (abort.signal.aborted) return { outcome: 'no_worker' };
      if (
        error instanceof WorkflowUpdateFailedError ||
        error instanceof WorkflowNotFoundError ||
        error instanceof WorkflowExecutionAlreadyStartedError
      ) {
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
    return await Promise.race([answer, probe, timeout]);
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
