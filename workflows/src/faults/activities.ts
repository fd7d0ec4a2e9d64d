/**
 * The node side of the workflow-task fault interceptor: decides which local activity completions are
 * followed by a failed workflow task (each once), and counts them.
 */
import { fileURLToPath } from 'node:url';
import type { WorkflowTaskFaultActivities } from './shared.ts';

/** Path of the interceptor module to bundle. */
export const workflowTaskFaultsModule: string = fileURLToPath(
  new URL('./taskFaults.workflow.ts', import.meta.url),
);

/** The fault activities and what they did. */
export interface WorkflowTaskFaults {
  activities: WorkflowTaskFaultActivities;
  /** Keys of the local activity calls after which a task was failed. */
  injected: string[];
}

/** Fails the task once after each call of the local activities named in `activityTypes`. */
export function createWorkflowTaskFaultActivities(activityTypes: readonly string[]): WorkflowTaskFaults {
  const chosen = new Set(activityTypes);
  const seen = new Set<string>();
  const injected: string[] = [];
  return {
    injected,
    activities: {
      async decideWorkflowTaskFault({ key, activityType }) {
        if (!chosen.has(activityType) || seen.has(key)) return false;
        seen.add(key);
        injected.push(key);
        return true;
      },
    },
  };
}
