/** Whether any worker is polling the task queue: what /health reports as the workers' presence. */
import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';

/**
 * An idle worker renews its long poll about once a minute, so a poller seen within this long is alive;
 * the server lists pollers for minutes after they stopped.
 */
export const livePollerWindowMs = 90_000;

/** Workflow and activity pollers of `taskQueue` seen within {@link livePollerWindowMs}. */
export async function countLivePollers(
  client: Client,
  namespace: string,
  taskQueue: string,
  now = Date.now(),
): Promise<{ workflow: number; activity: number }> {
  // A CommonJS package: its namespace is read from the default export under plain Node.
  const { TaskQueueType, TaskQueueKind } = proto.temporal.api.enums.v1;
  const count = async (taskQueueType: (typeof TaskQueueType)[keyof typeof TaskQueueType]) => {
    const described = await client.workflowService.describeTaskQueue({
      namespace,
      taskQueue: { name: taskQueue, kind: TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
      taskQueueType,
    });
    return (described.pollers ?? []).filter((poller) => {
      const seen = poller.lastAccessTime;
      if (!seen?.seconds) return false;
      const at = Number(seen.seconds) * 1000 + Math.floor((seen.nanos ?? 0) / 1e6);
      return now - at <= livePollerWindowMs;
    }).length;
  };
  const [workflow, activity] = await Promise.all([
    count(TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW),
    count(TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY),
  ]);
  return { workflow, activity };
}
