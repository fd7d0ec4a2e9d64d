/**
 * Session changes fanned out to the event streams of this process: one listener on the database's
 * `checkout_session_changed` channel (one connection per process, whatever the number of streams), and a
 * slow safety poll that asks, in one query, which watched sessions changed without a word reaching us.
 */
import { checkoutSessionChannel, type Db, findSessionVersions } from '@checkout/db';
import type { Logger } from './logger.ts';

/** One stream's interest in one session. */
interface SessionWatcher {
  /** The session may have changed: read it again. */
  wake(): void;
  /** `updated_at` (epoch ms) of the session as last sent, if any. */
  version(): number | undefined;
  /** The process is stopping: end the stream. */
  end(): void;
}

/** The fan-out of one process. */
export interface SessionEvents {
  /** Wakes `watcher` whenever session `id` may have changed, until the returned function is called. */
  watch(id: string, watcher: SessionWatcher): () => void;
  /** Ends every stream and stops listening. */
  close(): Promise<void>;
}

/** Sessions asked about per safety-poll query. */
const pollBatch = 1_000;

/**
 * Starts listening with the first watch, not before: a process that serves no stream holds no listening
 * connection. `safetyPollMs` bounds how late a change is seen if its notification is lost anyway.
 */
export function createSessionEvents(
  db: Db,
  options: { logger: Logger; safetyPollMs?: number },
): SessionEvents {
  const { logger } = options;
  const watchers = new Map<string, Set<SessionWatcher>>();
  let unlisten: Promise<(() => Promise<void>) | undefined> | undefined;
  let poll: NodeJS.Timeout | undefined;
  let polling = false;
  let closed = false;

  const wakeAll = () => {
    for (const set of watchers.values()) for (const watcher of set) watcher.wake();
  };

  const safetyPoll = async () => {
    if (polling || watchers.size === 0) return;
    polling = true;
    try {
      const ids = [...watchers.keys()];
      for (let i = 0; i < ids.length; i += pollBatch) {
        for (const row of await findSessionVersions(db.kysely, ids.slice(i, i + pollBatch))) {
          for (const watcher of watchers.get(row.id) ?? []) {
            if (watcher.version() !== row.updated_at.getTime()) watcher.wake();
          }
        }
      }
    } catch (error) {
      logger.warn({ err: error }, 'session safety poll failed');
    } finally {
      polling = false;
    }
  };

  const start = () => {
    unlisten ??= db
      .listen(checkoutSessionChannel, {
        onNotify: (id) => {
          for (const watcher of watchers.get(id) ?? []) watcher.wake();
        },
        // Changes made while nobody listened sent their notifications to no one: every stream reads again.
        onListening: wakeAll,
        onError: (error) => logger.warn({ err: error }, 'session change listener lost; listening again'),
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'cannot listen for session changes; the safety poll alone follows them');
        return undefined;
      });
    if (!poll) {
      poll = setInterval(() => void safetyPoll(), options.safetyPollMs ?? 30_000);
      poll.unref();
    }
  };

  return {
    watch(id, watcher) {
      if (closed) {
        watcher.end();
        return () => {};
      }
      watchers.set(id, (watchers.get(id) ?? new Set()).add(watcher));
      start();
      return () => {
        const current = watchers.get(id);
        current?.delete(watcher);
        if (current?.size === 0) watchers.delete(id);
      };
    },
    async close() {
      closed = true;
      clearInterval(poll);
      for (const set of [...watchers.values()]) for (const watcher of [...set]) watcher.end();
      watchers.clear();
      const stop = await unlisten;
      await stop?.();
    },
  };
}
