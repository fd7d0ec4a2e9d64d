/** The service process of one database target of the checkout benchmark. */
import { fileURLToPath } from 'node:url';
import { killAllTargets, startTarget, type TargetProcess } from '../child.ts';
import type { CheckoutReady } from './protocol.ts';

const serverScript = fileURLToPath(new URL('./server.ts', import.meta.url));

/** A running service process. */
export type ServiceProcess = TargetProcess<CheckoutReady>;

/** Spawns `node scripts/bench/checkout/server.ts` and waits for its ready line. */
export function startServiceProcess(options: {
  label: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  readyTimeoutMs: number;
}): Promise<ServiceProcess> {
  return startTarget<CheckoutReady>({ ...options, script: serverScript });
}

/** Kills every service process still running. */
export const killServiceProcesses = killAllTargets;
