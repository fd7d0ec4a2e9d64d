/** LISTEN on a PostgreSQL channel over one dedicated connection that comes back when it is lost. */
import pg from 'pg';

/** What a listener reports. */
export interface ListenHandlers {
  /** A notification on the channel. */
  onNotify(payload: string): void;
  /**
   * Listening (re)started. Notifications sent while it was not are lost, so whatever they would have
   * announced must be read again.
   */
  onListening(): void;
  /** The connection failed or was lost; a new one is being made. */
  onError?(error: unknown): void;
}

/** Delays between attempts to listen again, the last one repeated. */
const retryDelaysMs = [100, 250, 500, 1_000, 2_000, 5_000];

/** An identifier safe to write into LISTEN unquoted. */
export function assertChannelName(channel: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
}

/**
 * Listens on `channel` through its own client (never a pool connection: LISTEN is per session). Resolves
 * once the first attempt is over, listening or retrying; the returned function stops for good.
 */
export async function listenPostgres(
  url: string,
  channel: string,
  handlers: ListenHandlers,
): Promise<() => Promise<void>> {
  assertChannelName(channel);
  let current: pg.Client | undefined;
  let stopped = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;

  const lost = (client: pg.Client, error: unknown) => {
    if (current !== client) return;
    current = undefined;
    client.end().catch(() => {});
    if (stopped) return;
    handlers.onError?.(error);
    const delay = retryDelaysMs[Math.min(failures, retryDelaysMs.length - 1)]!;
    failures++;
    retry = setTimeout(() => void open(), delay);
  };

  const open = async () => {
    if (stopped) return;
    const client = new pg.Client({
      connectionString: url,
      application_name: `listen:${channel}`,
      // A connection cut without a word is probed after 30 s of silence, not the kernel's two hours.
      keepAlive: true,
      keepAliveInitialDelayMillis: 30_000,
      connectionTimeoutMillis: 10_000,
    });
    current = client;
    client.on('notification', (message) => {
      if (message.channel === channel) handlers.onNotify(message.payload ?? '');
    });
    client.on('error', (error) => lost(client, error));
    client.on('end', () => lost(client, new Error('the listening connection ended')));
    try {
      await client.connect();
      await client.query(`listen ${channel}`);
    } catch (error) {
      lost(client, error);
      return;
    }
    if (current !== client || stopped) return;
    failures = 0;
    handlers.onListening();
  };

  await open();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const client = current;
    current = undefined;
    await client?.end().catch(() => {});
  };
}
