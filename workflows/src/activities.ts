/** Activity registry: merges every workflow family's activities into the object a worker serves. */
import { createSmokeActivities } from './smoke/activities.ts';

/** Resources activities need; each workflow family adds the dependencies it uses. */
export type ActivityDeps = Record<never, never>;

/** Every activity the checkout workers serve. */
export type Activities = ReturnType<typeof createSmokeActivities>;

/** Builds all activities from their dependencies. */
export function createActivities(_deps: ActivityDeps = {}): Activities {
  return { ...createSmokeActivities() };
}
