/** Reads the messages a dev inbox stored as `.eml` files. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import PostalMime, { type Address } from 'postal-mime';

/** One stored message, parsed. */
export interface InboxMessage {
  /** File name without `.eml`: `<timestamp>-<random>`, sortable by arrival. */
  id: string;
  /** Address of the From header (the envelope sender when the header has none). */
  from: string;
  /** Envelope recipients, or the To and Cc addresses when the envelope was not recorded. */
  to: string[];
  subject: string;
  text: string;
  /** ISO 8601: the Date header, or the arrival time when it has none. */
  date: string;
  /** Message-ID header with its angle brackets; empty when absent. */
  messageId: string;
  /** Every header in order, keys lower case, values undecoded. */
  headers: { key: string; value: string }[];
}

/** Options of readInbox. */
export interface ReadInboxOptions {
  /** Keep only the newest this many messages (default 500). */
  limit?: number;
  /**
   * Parsed messages by id, kept between calls by a long-lived reader: stored files never change,
   * so each is parsed once. Entries no longer listed are dropped, so it holds at most `limit`.
   */
  cache?: Map<string, InboxMessage>;
}

/** Header the dev inbox prepends once per SMTP envelope recipient. */
export const envelopeToHeader = 'X-Envelope-To';

const storedName = /^(\d+-[0-9a-f]+)\.eml$/;
const readBatch = 16;

/** Parsed messages of `dir`, oldest first; a missing directory is an empty inbox. */
export async function readInbox(dir: string, options: ReadInboxOptions = {}): Promise<InboxMessage[]> {
  const limit = options.limit ?? 500;
  const names = await readdir(dir).catch(unlessMissing);
  if (names === undefined) return [];
  // Only finished files match: the inbox writes under a dot-name first and renames when complete.
  const ids = names
    .map((name) => storedName.exec(name)?.[1])
    .filter((id) => id !== undefined)
    .sort()
    .slice(-limit);
  const cache = options.cache;
  const missing = ids.filter((id) => !cache?.has(id));
  const parsed = new Map<string, InboxMessage>();
  // Batches keep the number of open files and buffered messages bounded.
  for (let start = 0; start < missing.length; start += readBatch) {
    const batch = await Promise.all(missing.slice(start, start + readBatch).map((id) => readOne(dir, id)));
    for (const message of batch) if (message) parsed.set(message.id, message);
  }
  if (cache) {
    const listed = new Set(ids);
    for (const id of cache.keys()) if (!listed.has(id)) cache.delete(id);
    for (const [id, message] of parsed) cache.set(id, message);
  }
  return ids.map((id) => cache?.get(id) ?? parsed.get(id)).filter((message) => message !== undefined);
}

async function readOne(dir: string, id: string): Promise<InboxMessage | undefined> {
  // Undefined when deleted between the listing and the read.
  const raw = await readFile(join(dir, `${id}.eml`)).catch(unlessMissing);
  if (raw === undefined) return undefined;
  const email = await PostalMime.parse(raw);
  const envelopeTo = email.headers
    .filter((h) => h.key === envelopeToHeader.toLowerCase())
    .map((h) => h.value.trim());
  const headerTo = [...addresses(email.to), ...addresses(email.cc)];
  const arrival = Number(id.split('-')[0]);
  return {
    id,
    from: addresses(email.from ? [email.from] : undefined)[0] ?? stripBrackets(email.returnPath ?? ''),
    to: envelopeTo.length > 0 ? envelopeTo : headerTo,
    subject: email.subject ?? '',
    text: email.text ?? '',
    date: isoDate(email.date) ?? new Date(arrival).toISOString(),
    messageId: email.messageId ?? '',
    headers: email.headers.map((h) => ({ key: h.key, value: h.value })),
  };
}

/** A catch handler: a missing file or directory reads as undefined, other errors are rethrown. */
function unlessMissing(error: unknown): undefined {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  throw error;
}

function addresses(list: Address[] | undefined): string[] {
  return (list ?? []).flatMap((entry) =>
    entry.group ? entry.group.map((mailbox) => mailbox.address) : [entry.address],
  );
}

function stripBrackets(value: string): string {
  return value.trim().replace(/^<(.*)>$/, '$1');
}

function isoDate(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}
