/**
 * Activity registry: merges every workflow family's activities into the object a worker serves.
 * Each family exports `create<Family>Activities(deps)` and its deps type; the worker's deps are their union.
 */
import { createSmokeActivities } from './smoke/activities.ts';

/** Resources every activity family may use; each family declares the part it needs. */
export type ActivityDeps = Record<never, never>;

/** Every activity the checkout workers serve. */
export type Activities = ReturnType<typeof createSmokeActivities>;

/** Builds all activities from their dependencies. */
export function createActivities(_deps: ActivityDeps = {}): Activities {
  return { ...createSmokeActivities() };
}
