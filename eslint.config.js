// Type-aware rules only; formatting and everything else is Biome's job.
import tseslint from 'typescript-eslint';

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
    // Workflow code runs in Temporal's deterministic sandbox: no Node built-ins, no I/O modules.
    files: ['workflows/src/**/workflow.ts', 'workflows/src/**/workflows.ts', 'workflows/src/workflows.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
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
);
