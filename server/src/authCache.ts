/**
 * What authentication verified, kept by this process so that a request with a key it knows makes no query:
 * a key's merchant, mode, scopes and end (`key`), and a key's wallet with its products' version (`wallet`).
 *
 * It is kept only while the process listens on `api_access_changed` (migration 0037), where every change of
 * those rows is announced with its merchant, committed with the change whoever makes it; each announcement
 * drops what is kept for that merchant. While the listening connection is lost nothing is kept, and what
 * was kept is dropped: a notice may have been missed. A request that changed something drops its
 * merchant's entries before it answers (`forget`), so its caller reads its own writes at once; another
 * process drops them when the notice reaches it, a few milliseconds after the commit. A rolled key's end
 * is kept with it and checked at each request: an expiry announces nothing.
 *
 * Only answers the database gave are kept, never a refusal. A read that was under way when something was
 * dropped is not kept (the generation moved), so a notice can never be overtaken by the row it replaced.
 */
import {
  type AuthenticatedKey,
  apiAccessChannel,
  type Database,
  type Db,
  findMerchantByApiKey,
  findMerchantWalletByApiKey,
  hashApiKey,
  noteApiKeyUse,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics.ts';

/** A key's wallet as `findMerchantWalletByApiKey` answers it. */
type WalletOfKey = NonNullable<Awaited<ReturnType<typeof findMerchantWalletByApiKey>>>;

/** What this process verified and may answer again without a query. */
export interface AuthCache {
  /** The merchant of a valid key, or undefined. */
  key(db: Kysely<Database>, key: string, now?: Date): Promise<AuthenticatedKey | undefined>;
  /** The wallet `address` of the valid key's merchant, or undefined. */
  wallet(db: Kysely<Database>, key: string, address: string, now?: Date): Promise<WalletOfKey | undefined>;
  /** Notes the key's use (at most once a minute per key: `noteApiKeyUse`), remembering when it did. */
  noteUse(db: Kysely<Database>, key: { apiKeyId: string; lastUsedAt: Date | null }): Promise<void>;
  /** Drops what is kept for the merchant: a request of this process changed something of it. */
  forget(merchantId: string): void;
  close(): Promise<void>;
}

/** Entries kept at most; the oldest goes first. */
const maxEntries = 10_000;

interface Entry {
  merchantId: string;
  expiresAt: Date | null;
  value: AuthenticatedKey | WalletOfKey;
}

/** Keeps nothing until it listens for changes, which it starts doing at the first authentication. */
export function createAuthCache(db: Db, options: { logger: Logger; metrics: Metrics }): AuthCache {
  const { logger, metrics } = options;
  const entries = new Map<string, Entry>();
  /** When this process last noted each key's use, newer than its row may say. */
  const noted = new Map<string, Date>();
  let listening = false;
  let generation = 0;

  const dropAll = () => {
    generation++;
    entries.clear();
  };
  const forget = (merchantId: string) => {
    generation++;
    for (const [id, entry] of entries) if (entry.merchantId === merchantId) entries.delete(id);
  };

  // Listening starts with the first authentication: a process that serves no API holds no connection for it.
  let unlisten: Promise<(() => Promise<void>) | undefined> | undefined;
  const start = (): void => {
    unlisten ??= db
      .listen(apiAccessChannel, {
        onNotify: forget,
        onListening: () => {
          dropAll();
          listening = true;
        },
        onError: (error) => {
          listening = false;
          dropAll();
          logger.warn(
            { err: error },
            'API access listener lost; authenticating from the database until it is back',
          );
        },
      })
      .catch((error: unknown) => {
        logger.error(
          { err: error },
          'cannot listen for API access changes; every request authenticates from the database',
        );
        return undefined;
      });
  };

  /** The kept answer for `id` when it still holds at `now`, else the database's (kept when it may be). */
  async function read<T extends AuthenticatedKey | WalletOfKey>(
    id: string,
    now: Date,
    query: () => Promise<T | undefined>,
    describe: (value: T) => Omit<Entry, 'value'>,
  ): Promise<T | undefined> {
    start();
    const kept = entries.get(id);
    if (kept && (kept.expiresAt === null || kept.expiresAt > now)) {
      metrics.apiAuthCache.inc({ outcome: 'hit' });
      return kept.value as T;
    }
    metrics.apiAuthCache.inc({ outcome: 'miss' });
    const at = generation;
    const value = await query();
    if (value && listening && at === generation) {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(id, { ...describe(value), value });
    }
    return value;
  }

  return {
    key: (kysely, key, now = new Date()) =>
      read(
        hashApiKey(key),
        now,
        () => findMerchantByApiKey(kysely, key, now),
        (found) => ({ merchantId: found.merchantId, expiresAt: found.expiresAt }),
      ),
    wallet: (kysely, key, address, now = new Date()) =>
      read(
        `${hashApiKey(key)} ${address.toLowerCase()}`,
        now,
        () => findMerchantWalletByApiKey(kysely, key, address, now),
        (found) => ({ merchantId: found.merchant_id, expiresAt: found.api_key_expires_at }),
      ),
    noteUse: async (kysely, key) => {
      const mine = noted.get(key.apiKeyId);
      const lastUsedAt = mine && (!key.lastUsedAt || mine > key.lastUsedAt) ? mine : key.lastUsedAt;
      const now = new Date();
      if (!(await noteApiKeyUse(kysely, { apiKeyId: key.apiKeyId, lastUsedAt }, now))) return;
      if (noted.size >= maxEntries) noted.clear();
      noted.set(key.apiKeyId, now);
    },
    forget,
    close: async () => {
      listening = false;
      dropAll();
      await (await unlisten)?.();
      unlisten = Promise.resolve(undefined);
    },
  };
}
