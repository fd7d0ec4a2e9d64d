/**
 * `npm start`: the whole system on embedded defaults. Starts the Temporal dev server (state and
 * Web UI) unless TEMPORAL_ADDRESS is set, then the service (API + worker) in this process, prints
 * every URL and a ready API key, and stops every child cleanly on Ctrl-C.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, startService } from '@checkout/server';
import { startTemporalDevServer, type TemporalDevServer } from '@checkout/workflows';
import { fetchTemporal } from './fetchTemporal.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const stops: Array<() => Promise<void>> = [];
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.error('\nstopping…');
    for (const stop of stops.reverse()) {
      try {
        await stop();
      } catch (error) {
        console.error(`shutdown step failed: ${(error as Error).message}`);
      }
    }
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  try {
    let temporal: TemporalDevServer | undefined;
    if (!config.temporal.address) {
      const { cli } = fetchTemporal();
      mkdirSync(config.dataDir, { recursive: true });
      temporal = await startTemporalDevServer({
        binary: cli,
        dbFilename: join(config.dataDir, 'temporal.sqlite'),
        port: 7233,
        uiPort: config.temporal.uiPort,
        namespace: config.temporal.namespace,
      });
      stops.push(() => temporal!.stop());
    }
    const service = await startService(config, temporal ? { temporalAddress: temporal.address } : {});
    stops.push(() => service.stop());

    const lines = [
      '',
      `  API           ${service.url}   (OpenAPI: ${service.url}/openapi.json, health: ${service.url}/health)`,
      `  Temporal UI   ${temporal?.uiUrl ?? `(external Temporal at ${config.temporal.address})`}`,
      `  Database      ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`}`,
    ];
    if (service.devApiKey) {
      lines.push(
        `  Wallet        ${service.devApiKey.address}   (send it as X-ADDRESS)`,
        `  API key       ${service.devApiKey.key}`,
        '',
        '  Try:',
        `    curl -s ${service.url}/api/v1/products -H "Authorization: Bearer ${service.devApiKey.key}" -H "X-ADDRESS: ${service.devApiKey.address}"`,
      );
    }
    lines.push('', '  Ctrl-C stops everything.', '');
    console.log(lines.join('\n'));
  } catch (error) {
    console.error(`could not start: ${(error as Error).message}`);
    await shutdown(1);
  }
}

void main();
