/** The PostgreSQL database a run uses: the one given, or a fresh one that is dropped afterwards. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Default server for the throw-away database. */
export const defaultAdminUrl = 'postgres://postgres@127.0.0.1:5432/postgres';

/** A database ready for the service, or why PostgreSQL is skipped. */
export type PostgresTarget =
  | { available: true; url: string; created: boolean; drop(): Promise<void> }
  | { available: false; reason: string };

/** The URL with any password hidden, for the report. */
export function redactUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: 5_000,
    query_timeout: 30_000,
  });
  // A dropped connection is reported by the failing query, not as a process-wide error.
  client.on('error', () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Uses `databaseUrl` when given; else creates `checkout_bench_<random>` on `adminUrl`. */
export async function preparePostgres(
  databaseUrl: string | undefined,
  adminUrl: string,
): Promise<PostgresTarget> {
  if (databaseUrl) {
    try {
      await withClient(databaseUrl, (c) => c.query('select 1'));
    } catch (error) {
      return {
        available: false,
        reason: `${redactUrl(databaseUrl)} unreachable: ${(error as Error).message}`,
      };
    }
    return { available: true, url: databaseUrl, created: false, drop: async () => {} };
  }
  const name = `checkout_bench_${randomBytes(6).toString('hex')}`;
  try {
    await withClient(adminUrl, (c) => c.query(`create database ${name}`));
  } catch (error) {
    return { available: false, reason: `${redactUrl(adminUrl)} unreachable: ${(error as Error).message}` };
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    available: true,
    url: url.toString(),
    created: true,
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await withClient(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}
