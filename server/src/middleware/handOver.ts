/**
 * Makes the workflow calls a request queued (in its own transactions) once the request is over and its
 * writes committed, before the answer leaves: the workflow then exists when the client hears back. A call
 * Temporal does not take within its bound is left to the hand-over's sweep; the answer stands either way.
 */
import type { Database } from '@checkout/db';
import { collectWorkflowCalls, type HandOver } from '@checkout/workflows';
import type { Middleware } from 'koa';
import type { Kysely } from 'kysely';
import type { AppState } from '../context.ts';

/** Wraps every request in a collection of the workflow calls it queues. */
export function handOverAfterRequest(handOver: HandOver, root: Kysely<Database>): Middleware<AppState> {
  return (ctx, next) =>
    collectWorkflowCalls(root, next, async (ids) => {
      try {
        await handOver.dispatcher.dispatch(ids);
      } catch (error) {
        ctx.state.log.warn({ err: error }, 'the workflow calls of the request were left to the sweep');
      }
    });
}
