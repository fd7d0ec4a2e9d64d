// Type-aware rules only; formatting and everything else is Biome's job.
import tseslint from 'typescript-eslint';

/**
 * The core package's index in the workflow bundle: every schema (zod) and viem, evaluated again at each
 * workflow run. Sandbox code takes what it needs by the package's own paths (`@checkout/core/amount`…).
 */
const coreIndexInSandbox = {
  name: '@checkout/core',
  allowTypeImports: true,
  message: "The sandbox evaluates every module again at each run: import by the package's own paths.",
};

/** The files that run in Temporal's workflow sandbox. */
const sandboxFiles = ['workflows/src/**/workflow.ts', 'workflows/src/**/*.workflow.ts'];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-types/**',
      'packages/client/src/generated/**',
      '.data/**',
      '.tools/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // Workflow code runs in Temporal's deterministic sandbox: no Node built-ins, no I/O modules. A file's
    // suffix says where it runs: `workflow.ts` and `*.workflow.ts` in the sandbox, `activities.ts` and
    // `*.activities.ts` in activities, `*.step.ts` in the API server's requests.
    files: sandboxFiles,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [coreIndexInSandbox],
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'crypto', 'http', 'https', 'net', 'child_process'],
              message: 'Workflow code is deterministic: do I/O in activities.',
            },
            {
              group: [
                '@checkout/db',
                'koa',
                'pg',
                '@electric-sql/*',
                'viem',
                '@temporalio/client',
                '@temporalio/worker',
              ],
              message: 'Workflow code imports no I/O modules.',
            },
          ],
        },
      ],
    },
  },
  {
    // A family's `shared.ts` is imported by its workflow: the same bundle, evaluated again at each run.
    files: ['workflows/src/**/shared.ts'],
    // The sandbox family (`sandbox/`, the test networks' outcome moves) runs in the API, not in the bundle.
    ignores: ['workflows/src/sandbox/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [coreIndexInSandbox] }] },
  },
  {
    // Only sandbox files run workflow code; a `shared.ts` may define a family's signals, queries and updates.
    files: ['workflows/src/**/*.ts'],
    ignores: [...sandboxFiles, 'workflows/src/**/shared.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@temporalio/workflow',
              message:
                'Workflow code lives in workflow.ts or *.workflow.ts, where the sandbox rule guards it.',
            },
          ],
        },
      ],
    },
  },
);
