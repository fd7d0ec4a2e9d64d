import { defineConfig } from 'vitest/config';

// Native addons (Temporal core bridge, PGlite's wasm) want process isolation: forks, never threads.
const shared = {
  environment: 'node' as const,
  pool: 'forks' as const,
  testTimeout: 60_000,
  hookTimeout: 120_000,
  teardownTimeout: 30_000,
};

export default defineConfig({
  test: {
    reporters: ['default'],
    // Two test files at a time, whatever the machine: most of a file's time is spent waiting on chains,
    // timers and workflows. On a 2-core machine the suite took 1,385 s so, against 1,967 s one at a time.
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...shared,
          name: 'unit',
          include: [
            'packages/**/src/**/*.test.ts',
            'server/src/**/*.test.ts',
            'widget/src/**/*.test.ts',
            'react/src/**/*.test.ts',
          ],
        },
      },
      {
        test: {
          ...shared,
          name: 'workflows',
          include: ['workflows/src/**/*.test.ts'],
          globalSetup: ['test/setup/temporal.ts'],
        },
      },
      {
        test: {
          ...shared,
          name: 'integration-pglite',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/setup/temporal.ts', 'test/setup/database.ts'],
          env: { TEST_DATABASE: 'pglite' },
        },
      },
      {
        test: {
          ...shared,
          name: 'integration-postgres',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/setup/temporal.ts', 'test/setup/database.ts'],
          env: { TEST_DATABASE: 'postgres' },
        },
      },
      {
        test: {
          ...shared,
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/setup/temporal.ts', 'test/setup/database.ts', 'test/setup/widgetBuild.ts'],
          env: { TEST_DATABASE: 'pglite' },
        },
      },
    ],
  },
});
