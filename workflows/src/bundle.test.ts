/**
 * What the workflow bundle holds. The sandbox evaluates every module of the bundle again for each workflow
 * run (each run gets its own module state), so a schema library or a chain client in it is paid at every
 * checkout, webhook delivery and refund: the bundle holds the workflows, their shared names and types, and
 * Temporal's workflow library, nothing else.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';

describe('the workflow bundle', () => {
  it('holds no schema library, chain client, database module or the core package index', () => {
    const code = readFileSync(inject('workflowBundlePath'), 'utf8');
    const modules = [...code.matchAll(/^\/\*\*\*\/ "([^"]+)"/gm)].map((m) => m[1]!);
    expect(modules.length).toBeGreaterThan(50);
    const heavy = modules.filter((m) =>
      /node_modules\/(zod|viem|abitype|@noble|kysely|pg)\/|packages\/(db|chain|mail)\/|packages\/core\/src\/(index|schemas\/)/.test(
        m,
      ),
    );
    expect(heavy).toEqual([]);
  });
});
