/**
 * Workflow calls queued by an activity's own transactions, made at the end of the activity through the
 * worker's client (the hand-over's sweep makes any Temporal does not take then).
 */
import type { Database } from '@checkout/db';
import { Context } from '@temporalio/activity';
import type { Kysely } from 'kysely';
import { createWorkflowCallDispatcher } from './dispatcher.ts';
import { collectWorkflowCalls } from './queueWorkflowCall.ts';

/** Runs `work` (inside an activity) and makes the workflow calls it queued once it is over. */
export function withQueuedCalls<T>(db: Kysely<Database>, work: () => Promise<T>): Promise<T> {
  return collectWorkflowCalls(db, work, async (ids) => {
    const activity = Context.current();
    await createWorkflowCallDispatcher({
      db,
      temporal: { client: activity.client },
      taskQueue: activity.info.taskQueue,
      log: {
        info: (fields, message) => activity.log.info(message, fields as Record<string, unknown>),
        warn: (fields, message) => activity.log.warn(message, fields as Record<string, unknown>),
      },
    }).dispatch(ids);
  });
}
