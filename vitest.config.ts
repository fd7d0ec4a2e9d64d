import { configDefaults, defineConfig } from 'vitest/config';

// Native addons (Temporal core bridge, PGlite's wasm) want process isolation: forks, never threads.
const shared = {
  environment: 'node' as const,
  pool: 'forks' as const,
  testTimeout: 60_000,
  hookTimeout: 120_000,
  teardownTimeout: 30_000,
};

// The files that boot a database, Temporal or the whole service run one after another in the same process
// of a worker (`isolate: false`): the service's modules are imported once per worker instead of once per
// file (about 5 s of a core each, 87 files). Each such file still opens its own database, task queue,
// service and dev chain (lent by `test/setup/chains.ts`) and closes them; the one thing they share is the
// Temporal runtime, installed once per process (`installRuntime`, workflows/src/worker.ts). The unit files
// stay isolated: some replace modules (`vi.mock`) for themselves.
const serviceFiles = { ...shared, isolate: false };

// Where each test runs, and why. An integration file boots the whole service (database, Temporal worker, dev
// chain, inbox, webhook receiver); what it proves does not depend on the database, so the integration suite
// runs once, on PostgreSQL. What does depend on the database runs on both: the SQL itself (the repositories'
// and the migrations' tests, `database-*`), and a smoke set of integration files that runs the whole service on
// the embedded default, PGlite, end to end (`integration-pglite`). The widget's Chromium suite (`e2e`) runs on
// PGlite too.
const databaseTests = [
  'packages/db/src/repositories/**/*.test.ts',
  'packages/db/src/migrations/**/*.test.ts',
];
const pgliteSmoke = [
  // A session opened, paid (exact, swapped, reverted, closed tab) and resolved; its webhook and e-mails.
  'test/integration/checkout.test.ts',
  // Refunds asked, claimed, paid on the chain, recognised and confirmed; an unmatched transfer refunded.
  'test/integration/refunds.test.ts',
  // The session's event stream on PGlite's in-process NOTIFY.
  'test/integration/sessionEvents.test.ts',
  // The public limit counted in the process (on PostgreSQL the count is shared by every API process).
  'test/integration/publicRateLimit.test.ts',
  // PGlite only: the data directory, its lock and the CLI's socket; `npm start` and its shutdown.
  'test/integration/embedded.test.ts',
  'test/integration/startShutdown.test.ts',
];
const pgliteOnly = ['test/integration/embedded.test.ts', 'test/integration/startShutdown.test.ts'];

export default defineConfig({
  test: {
    reporters: ['default'],
    // Two test files at a time, whatever the machine: most of a file's time is spent waiting on chains,
    // timers and workflows. On a 2-core machine the suite took 767–814 s so (1,410 s before the service
    // files shared their worker's process and borrowed their chains), against 1,967 s one at a time.
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
          exclude: [...configDefaults.exclude, ...databaseTests],
        },
      },
      {
        test: {
          ...serviceFiles,
          name: 'workflows',
          include: ['workflows/src/**/*.test.ts'],
          globalSetup: ['test/setup/temporal.ts', 'test/setup/chains.ts'],
        },
      },
      {
        test: {
          ...serviceFiles,
          name: 'database-pglite',
          include: databaseTests,
          globalSetup: ['test/setup/database.ts'],
          env: { TEST_DATABASE: 'pglite' },
        },
      },
      {
        test: {
          ...serviceFiles,
          name: 'database-postgres',
          include: databaseTests,
          globalSetup: ['test/setup/database.ts'],
          env: { TEST_DATABASE: 'postgres' },
        },
      },
      {
        test: {
          ...serviceFiles,
          name: 'integration-pglite',
          include: pgliteSmoke,
          globalSetup: ['test/setup/temporal.ts', 'test/setup/database.ts', 'test/setup/chains.ts'],
          env: { TEST_DATABASE: 'pglite' },
        },
      },
      {
        test: {
          ...serviceFiles,
          name: 'integration-postgres',
          include: ['test/integration/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...pgliteOnly],
          globalSetup: ['test/setup/temporal.ts', 'test/setup/database.ts', 'test/setup/chains.ts'],
          env: { TEST_DATABASE: 'postgres' },
        },
      },
      {
        test: {
          ...serviceFiles,
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: [
            'test/setup/temporal.ts',
            'test/setup/database.ts',
            'test/setup/chains.ts',
            'test/setup/widgetBuild.ts',
          ],
          env: { TEST_DATABASE: 'pglite' },
        },
      },
    ],
  },
});
