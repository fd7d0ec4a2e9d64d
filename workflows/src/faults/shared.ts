/** The local activity the workflow-task fault interceptor asks before failing a task. */
export interface WorkflowTaskFaultActivities {
  /** True the first time `key` (one local activity call of one run) is seen, for a chosen activity type. */
  decideWorkflowTaskFault(input: { key: string; activityType: string }): Promise<boolean>;
}
