/**
 * A workflow interceptor module that fails a workflow task right after a chosen local activity completed,
 * the first time only: the task is retried, the run is replayed, and the local activity runs again (its
 * result marker was lost with the failed task). This is what happens in production when a task fails
 * with UNHANDLED_COMMAND or its worker dies, made to happen on purpose, so a test can count the effects.
 *
 * Bundle it with `bundleWorkflows(path, logger, { interceptorModules: [workflowTaskFaultsModule] })` and
 * serve {@link createWorkflowTaskFaultActivities} next to the real activities. Never in a production bundle.
 */
import { proxyLocalActivities, type WorkflowInterceptorsFactory, workflowInfo } from '@temporalio/workflow';
import type { WorkflowTaskFaultActivities } from './shared.ts';

const { decideWorkflowTaskFault } = proxyLocalActivities<WorkflowTaskFaultActivities>({
  startToCloseTimeout: '10 seconds',
});

export const interceptors: WorkflowInterceptorsFactory = () => {
  let failThisTask: string | null = null;
  return {
    outbound: [
      {
        async scheduleLocalActivity(input, next) {
          const result = await next(input);
          if (input.activityType === 'decideWorkflowTaskFault') return result;
          const { workflowId, runId } = workflowInfo();
          const key = `${workflowId}:${runId}:${input.seq}:${input.activityType}`;
          if (await decideWorkflowTaskFault({ key, activityType: input.activityType })) failThisTask = key;
          return result;
        },
      },
    ],
    internals: [
      {
        concludeActivation(input, next) {
          if (failThisTask !== null) {
            const key = failThisTask;
            failThisTask = null;
            throw new Error(`workflow task failed on purpose after ${key}`);
          }
          return next(input);
        },
      },
    ],
  };
};
