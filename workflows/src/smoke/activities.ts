/** Activities of the smoke workflows. */
import type { SmokeActivities } from './shared.ts';

/** Builds the smoke activities; they touch nothing outside the process. */
export function createSmokeActivities(): SmokeActivities {
  return {
    async echo(message: string): Promise<string> {
      return `pong: ${message}`;
    },
  };
}
