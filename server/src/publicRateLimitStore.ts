/**
 * Where the public API's per-client request counts live: in PostgreSQL, shared by every API process (one
 * upsert per request); with the embedded database, which one process owns, in that process's memory.
 */
import { countPublicRequest, type Db, purgePublicRateLimits } from '@checkout/db';
import type { Logger } from './logger.ts';

/** Counts requests per client in fixed one-minute windows. */
export interface PublicRateLimitStore {
  /** Counts one request of `client`; returns its requests in the current minute and when the minute ends. */
  hit(client: string): Promise<{ count: number; resetInMs: number }>;
}

/**
 * Counters in this process's memory (windows aligned to the minute, like the database's).
 * @internal exported for its unit test
 */
export function memoryRateLimitStore(now: () => number = Date.now): PublicRateLimitStore {
  let windowStart = 0;
  let counts = new Map<string, number>();
  return {
    async hit(client) {
      const at = now();
      const start = at - (at % 60_000);
      if (start !== windowStart) {
        windowStart = start;
        counts = new Map();
      }
      const count = (counts.get(client) ?? 0) + 1;
      counts.set(client, count);
      return { count, resetInMs: start + 60_000 - at };
    },
  };
}

/** Counters in the database; minutes that are over are deleted at most once a minute per process. */
function databaseRateLimitStore(db: Db, logger: Logger): PublicRateLimitStore {
  let lastPurge = 0;
  return {
    async hit(client) {
      const result = await countPublicRequest(db.kysely, client);
      if (Date.now() - lastPurge >= 60_000) {
        lastPurge = Date.now();
        purgePublicRateLimits(db.kysely).catch((error: unknown) =>
          logger.warn({ err: error }, 'purging old rate limit counters failed'),
        );
      }
      return result;
    },
  };
}

/** The store that suits the database: shared on PostgreSQL, in memory on PGlite. */
export function publicRateLimitStore(db: Db, logger: Logger): PublicRateLimitStore {
  return db.kind === 'postgres' ? databaseRateLimitStore(db, logger) : memoryRateLimitStore();
}
