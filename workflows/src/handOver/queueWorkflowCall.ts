/**
 * The one verb that hands work to Temporal: a domain step queues the workflow call it needs in its own
 * transaction (`workflow_calls`), so the call is durable exactly when the step's writes are. The
 * dispatcher makes the calls a request queued right after it commits, and sweeps whatever is left.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { type Database, insertWorkflowCall, type NewWorkflowCall } from '@checkout/db';
import type { Kysely } from 'kysely';
import type { WorkflowSummary } from '../shared.ts';

export type { NewWorkflowCall as WorkflowCall } from '@checkout/db';

/** What one request (or other unit of work) queued: calls in its transactions, and calls for afterwards. */
interface Queued {
  ids: string[];
  afterwards: NewWorkflowCall[];
}

const queued = new AsyncLocalStorage<Queued>();

/** Queues `call` in `db`'s transaction; the dispatcher makes it after commit. */
export async function queueWorkflowCall(db: Kysely<Database>, call: NewWorkflowCall): Promise<string> {
  const id = await insertWorkflowCall(db, call);
  queued.getStore()?.ids.push(id);
  return id;
}

/**
 * Queues `call` once the current request is over, whatever becomes of its writes: for a call a refused
 * request must still make (a refusal rolls back the request's transaction). Outside a request, at once.
 */
export async function queueWorkflowCallAfterwards(
  db: Kysely<Database>,
  call: NewWorkflowCall,
): Promise<void> {
  const store = queued.getStore();
  if (store) store.afterwards.push(call);
  else await insertWorkflowCall(db, call);
}

/**
 * Runs `work` and hands the ids of the calls it queued to `after` once it is over, whether it succeeded or
 * failed (its committed writes may have queued some before it failed): the calls queued for afterwards are
 * inserted through `root` (no transaction of `work` is open any more) and handed on with them.
 */
export async function collectWorkflowCalls<T>(
  root: Kysely<Database>,
  work: () => Promise<T>,
  after: (ids: string[]) => Promise<void>,
): Promise<T> {
  const store: Queued = { ids: [], afterwards: [] };
  try {
    return await queued.run(store, work);
  } finally {
    for (const call of store.afterwards) store.ids.push(await insertWorkflowCall(root, call));
    if (store.ids.length > 0) await after(store.ids);
  }
}

/** The shown parts of a call: its summary and details in the Temporal UI. */
export function shown(
  summary: WorkflowSummary | undefined,
): Pick<NewWorkflowCall['call'], 'staticSummary' | 'staticDetails'> {
  return {
    ...(summary?.staticSummary ? { staticSummary: summary.staticSummary } : {}),
    ...(summary?.staticDetails ? { staticDetails: summary.staticDetails } : {}),
  };
}
