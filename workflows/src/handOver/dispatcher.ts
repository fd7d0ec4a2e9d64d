/**
 * The dispatcher of queued workflow calls: makes a request's calls right after it commits, each within
 * {@link workflowCallTimeoutMs}, and sweeps every `intervalMs` whatever is left (Temporal was away, the
 * process died after commit). Workflow ids are business keys and every call is idempotent (a start reuses
 * the running workflow, signals are deduplicated by the workflows' activities), so a call made twice does
 * no harm.
 */
import {
  countWaitingWorkflowCalls,
  type Database,
  listWaitingWorkflowCalls,
  listWorkflowCalls,
  markWorkflowCallTaken,
  noteWorkflowCallFailed,
  type WorkflowCallRow,
} from '@checkout/db';
import { type Client, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { defineSearchAttributeKey, type SearchAttributePair, SearchAttributeType } from '@temporalio/common';
import type { Kysely } from 'kysely';
import { searchAttributeKeys } from '../shared.ts';
import { callWithin, workflowCallTimeoutMs } from './callWithin.ts';

/** Calls handled per sweep. */
const batchSize = 100;

/** What the dispatcher needs: the database, a Temporal client (absent when the service runs without one) and the task queue. */
export interface DispatcherDeps {
  db: Kysely<Database>;
  temporal?: { client: Client } | undefined;
  taskQueue: string;
  log: DispatcherLog;
}

/** A structured logger (fields first, then the message, as pino takes them). */
export interface DispatcherLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** What one sweep handed over. */
interface SweepResult {
  /** Calls Temporal took. */
  taken: number;
  /** Whether the sweep stopped at a call Temporal did not take. */
  failed: boolean;
}

/** The dispatcher of one process. */
export interface WorkflowCallDispatcher {
  /** Makes the calls `ids` Temporal has not taken yet, in order; stops at the first it does not take. */
  dispatch(ids: readonly string[]): Promise<void>;
  /** Makes the waiting calls queued before `before`, oldest first. */
  sweep(before: Date): Promise<SweepResult>;
  /** How many calls wait for Temporal longer than a call may take. */
  backlog(now?: number): Promise<number>;
}

/** Builds the dispatcher over its dependencies. */
export function createWorkflowCallDispatcher(deps: DispatcherDeps): WorkflowCallDispatcher {
  const { db, log } = deps;

  /** Makes one call; true when Temporal took it. */
  const make = async (row: WorkflowCallRow): Promise<boolean> => {
    const client = deps.temporal?.client;
    if (!client) return false;
    try {
      await callWithin(client, workflowCallTimeoutMs, () => callTemporal(client, deps.taskQueue, row));
    } catch (error) {
      // A workflow that never runs twice ran already; a signal's workflow has ended: nothing is left to do.
      const moot =
        error instanceof WorkflowExecutionAlreadyStartedError ||
        (row.kind === 'signal' && error instanceof WorkflowNotFoundError);
      if (!moot) {
        await noteWorkflowCallFailed(db, row.id, error instanceof Error ? error.message : String(error));
        log.warn(
          { err: error, workflowId: row.workflow_id, kind: row.kind },
          'the workflow call failed; the dispatcher will make it again',
        );
        return false;
      }
    }
    await markWorkflowCallTaken(db, row.id);
    return true;
  };

  const makeAll = async (rows: readonly WorkflowCallRow[]): Promise<SweepResult> => {
    let taken = 0;
    for (const row of rows) {
      // Temporal is most likely still away: the rest wait for the next sweep.
      if (!(await make(row))) return { taken, failed: true };
      taken += 1;
    }
    return { taken, failed: false };
  };

  return {
    async dispatch(ids) {
      if (!deps.temporal || ids.length === 0) return;
      await makeAll(await listWorkflowCalls(db, ids));
    },
    async sweep(before) {
      if (!deps.temporal) return { taken: 0, failed: false };
      return makeAll(await listWaitingWorkflowCalls(db, before, batchSize));
    },
    backlog: (now = Date.now()) => countWaitingWorkflowCalls(db, new Date(now - workflowCallTimeoutMs * 2)),
  };
}

/** The start options a call describes: its workflow, input, and how the Temporal UI shows it. */
export function startOptionsOf(row: WorkflowCallRow, taskQueue: string) {
  const { call } = row;
  return {
    workflowId: row.workflow_id,
    taskQueue,
    args: call.args,
    ...(call.once ? { workflowIdReusePolicy: 'REJECT_DUPLICATE' as const } : {}),
    ...(call.searchAttributes ? { typedSearchAttributes: typedAttributes(call.searchAttributes) } : {}),
    ...(call.memo ? { memo: call.memo } : {}),
    ...(call.staticSummary ? { staticSummary: call.staticSummary } : {}),
    ...(call.staticDetails ? { staticDetails: call.staticDetails } : {}),
  };
}

/** A call's search attributes with their registered types (a name the workflows do not declare is a Keyword). */
function typedAttributes(attributes: Record<string, string | string[]>): SearchAttributePair[] {
  return Object.entries(attributes).map(([name, value]) => {
    const key =
      searchAttributeKeys.find((known) => known.name === name) ??
      defineSearchAttributeKey(name, SearchAttributeType.KEYWORD);
    return { key, value } as SearchAttributePair;
  });
}

/** Makes the Temporal call a row describes. */
async function callTemporal(client: Client, taskQueue: string, row: WorkflowCallRow): Promise<void> {
  const { call } = row;
  if (row.kind === 'start') {
    await client.workflow.start(row.workflow_type, {
      ...startOptionsOf(row, taskQueue),
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    return;
  }
  if (!call.signal) throw new Error(`the workflow call ${row.id} has no signal`);
  if (row.kind === 'signal') {
    await client.workflow.getHandle(row.workflow_id).signal(call.signal.name, ...call.signal.args);
    return;
  }
  // A signal-with-start signals the running workflow, or starts one.
  await client.workflow.signalWithStart(row.workflow_type, {
    ...startOptionsOf(row, taskQueue),
    signal: call.signal.name,
    signalArgs: call.signal.args,
  });
}
