/** Builds the widget and the console once before the browser suite, so the service serves the current sources. */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  // Vitest sets NODE_ENV=test, which would make Vite pick Lit's development build.
  const env = { ...process.env, NODE_ENV: 'production' };
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, [`${root}node_modules/vite/bin/vite.js`, 'build'], {
    cwd: `${root}widget`,
    stdio: 'pipe',
    env,
  });
  for (const mode of ['iife', 'refunds'])
    execFileSync(process.execPath, [`${root}node_modules/vite/bin/vite.js`, 'build', '--mode', mode], {
      cwd: `${root}widget`,
      stdio: 'pipe',
      env,
    });
  execFileSync(process.execPath, [`${root}node_modules/vite/bin/vite.js`, 'build'], {
    cwd: `${root}console`,
    stdio: 'pipe',
    env,
  });
}
