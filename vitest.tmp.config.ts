import { defineConfig } from 'vitest/config';
export default defineConfig({ test: { root: '/work/main', environment: 'node', pool: 'forks', testTimeout: 60000, hookTimeout: 120000, include: ['test/integration/{products,badInput,idempotency}.test.ts'], globalSetup: ['test/setup/database.ts'], env: { TEST_DATABASE: process.env.TEST_DATABASE ?? 'pglite' } } });
