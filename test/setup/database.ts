/**
 * Prepares the database of a test project, whose files open theirs with `openTestDatabase`
 * (`packages/db/src/testDatabase.ts`): for PGlite, one migrated data directory dumped to a tarball that every
 * database loads (creating a fresh PGlite costs seconds, loading a dump much less); for PostgreSQL, a
 * reachable server (required under CI, otherwise the project's tests are skipped).
 */
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@checkout/db';
// What this setup provides (`ProvidedContext`) is declared beside the databases made of it.
import type {} from '@checkout/db/testDatabase';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

/** Admin URL of the PostgreSQL server the suite creates its databases on. */
const postgresAdminUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export default async function setup(project: TestProject): Promise<void> {
  const kind = project.config.env?.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';
  project.provide('databaseKind', kind);
  project.provide('postgresAdminUrl', postgresAdminUrl);
  project.provide('pgliteDumpPath', '');
  project.provide('postgresUnavailable', '');
  if (kind === 'pglite') {
    const db = await openDatabase({ kind: 'pglite-memory' });
    const dump = await db.dump!();
    await db.close();
    const path = join(tmpdir(), `checkout-pglite-${process.pid}.tar`);
    await writeFile(path, Buffer.from(await dump.arrayBuffer()));
    project.provide('pgliteDumpPath', path);
    return;
  }
  const client = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    const reason = `PostgreSQL at ${postgresAdminUrl} is not reachable: ${(error as Error).message}`;
    if (process.env.CI) throw new Error(reason);
    console.warn(`${reason}; the PostgreSQL integration suite is skipped (set TEST_POSTGRES_URL).`);
    project.provide('postgresUnavailable', reason);
  } finally {
    await client.end().catch(() => {});
  }
}
