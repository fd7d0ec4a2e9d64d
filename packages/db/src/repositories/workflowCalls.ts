/** The workflow calls queued by domain steps (the outbox of the hand-over to Temporal). */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { StoredWorkflowCall, WorkflowCallRow } from '../handOverSchema.ts';
import type { Database } from '../schema.ts';

/** A call to queue: which workflow, how, and what it carries. */
export interface NewWorkflowCall {
  kind: WorkflowCallRow['kind'];
  workflowType: string;
  workflowId: string;
  call: StoredWorkflowCall;
}

/** Queues a call in the caller's transaction; its id. */
export async function insertWorkflowCall(db: Kysely<Database>, call: NewWorkflowCall): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('workflow_calls')
    .values({
      id,
      kind: call.kind,
      workflow_type: call.workflowType,
      workflow_id: call.workflowId,
      call: JSON.stringify(call.call),
      created_at: new Date(),
    })
    .execute();
  return id;
}

/** Those of the calls `ids` Temporal has not taken yet, in the order they were queued. */
export async function listWorkflowCalls(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<WorkflowCallRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('workflow_calls')
    .selectAll()
    .where('id', 'in', ids)
    .where('taken_at', 'is', null)
    .orderBy('created_at')
    .execute();
}

/** Calls queued before `before` that Temporal has not taken, oldest first (at most `limit`). */
export async function listWaitingWorkflowCalls(
  db: Kysely<Database>,
  before: Date,
  limit: number,
): Promise<WorkflowCallRow[]> {
  return db
    .selectFrom('workflow_calls')
    .selectAll()
    .where('taken_at', 'is', null)
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/** How many calls queued before `before` wait for Temporal. */
export async function countWaitingWorkflowCalls(db: Kysely<Database>, before: Date): Promise<number> {
  const row = await db
    .selectFrom('workflow_calls')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('taken_at', 'is', null)
    .where('created_at', '<', before)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Notes that Temporal took the call. */
export async function markWorkflowCallTaken(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable('workflow_calls').set({ taken_at: new Date() }).where('id', '=', id).execute();
}

/** Notes a call Temporal did not take, and why. */
export async function noteWorkflowCallFailed(db: Kysely<Database>, id: string, error: string): Promise<void> {
  await db
    .updateTable('workflow_calls')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: error.slice(0, 500) }))
    .where('id', '=', id)
    .execute();
}

/** The call that starts the workflow `workflowId` (the first queued), if one was queued. */
export async function findStartCall(
  db: Kysely<Database>,
  workflowId: string,
): Promise<WorkflowCallRow | undefined> {
  return db
    .selectFrom('workflow_calls')
    .selectAll()
    .where('workflow_id', '=', workflowId)
    .where('kind', '=', 'start')
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Where the calls to the workflow `workflowId` stand: whether one still waits for Temporal, and when Temporal
 * last took one (null when none was taken).
 */
export async function handOverOf(
  db: Kysely<Database>,
  workflowId: string,
): Promise<{ waiting: boolean; lastTakenAt: Date | null }> {
  const row = await db
    .selectFrom('workflow_calls')
    .select((eb) => [
      eb.fn.countAll<string>().filterWhere('taken_at', 'is', null).as('waiting'),
      eb.fn.max('taken_at').as('last_taken_at'),
    ])
    .where('workflow_id', '=', workflowId)
    .executeTakeFirstOrThrow();
  return {
    waiting: Number(row.waiting) > 0,
    lastTakenAt: row.last_taken_at ? new Date(row.last_taken_at as unknown as string) : null,
  };
}
