/**
 * Command line: `api-keys create --address 0x… [--label …] [--mode test|live]`, `api-keys list`,
 * `api-keys revoke <id>`.
 * With the embedded database held by a running server, commands go through its admin socket.
 */
import { parseArgs } from 'node:util';
import { DataDirLockedError, readLock } from '@checkout/db';
import { type AdminCommand, checkAdminCommand, runAdminCommand } from './adminCommands.ts';
import { sendAdminCommand } from './adminSocket.ts';
import { loadConfig } from './config.ts';
import { openConfiguredDatabase } from './service.ts';

const usage = `usage:
  npm run cli -- api-keys create --address 0x… [--label text] [--mode test|live]
      prints the new key on the last line; a test key (ck_test_…) sees only test networks' records;
      the default is live (ck_live_…), which sees every record
  npm run cli -- api-keys list
  npm run cli -- api-keys revoke <api-key-id>
  npm run cli -- --help`;

/** A command line that names no command: the usage is printed, with `message` first when there is one. */
class UsageError extends Error {}

/** The command of `argv`, or undefined for `--help`. */
function parseCommand(argv: string[]): AdminCommand | undefined {
  const { values, positionals } = parseOptions(argv);
  if (values.help) return undefined;
  const [group, action, arg] = positionals;
  if (group === 'api-keys' && action === 'create') {
    if (!values.address) throw new UsageError('--address is required');
    return {
      command: 'api-keys.create',
      address: values.address,
      ...(values.label ? { label: values.label } : {}),
      ...(values.mode ? { mode: values.mode } : {}),
    };
  }
  if (group === 'api-keys' && action === 'list') return { command: 'api-keys.list' };
  if (group === 'api-keys' && action === 'revoke' && arg) return { command: 'api-keys.revoke', id: arg };
  throw new UsageError('');
}

function parseOptions(argv: string[]) {
  const options = {
    address: { type: 'string' },
    label: { type: 'string' },
    mode: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  } as const;
  try {
    return parseArgs({ args: argv, allowPositionals: true, options });
  } catch (error) {
    // Node's own wording, e.g. "Unknown option '--foo'", followed by what is known.
    throw new UsageError((error as Error).message);
  }
}

async function execute(cmd: AdminCommand): Promise<unknown> {
  const config = loadConfig();
  if (!config.databaseUrl) {
    const holder = readLock(config.dataDir);
    if (holder?.adminSocket) return sendAdminCommand(holder.adminSocket, cmd);
  }
  let db: Awaited<ReturnType<typeof openConfiguredDatabase>>;
  try {
    db = await openConfiguredDatabase(config);
  } catch (error) {
    if (error instanceof DataDirLockedError && error.holder.adminSocket) {
      return sendAdminCommand(error.holder.adminSocket, cmd);
    }
    throw error;
  }
  try {
    return await runAdminCommand(db, cmd);
  } finally {
    await db.close();
  }
}

async function main(): Promise<void> {
  const cmd = parseCommand(process.argv.slice(2));
  if (!cmd) {
    console.log(usage);
    return;
  }
  // Checked before any database is opened: a mistyped argument is answered at once, in words.
  checkAdminCommand(cmd);
  const result = await execute(cmd);
  if (cmd.command === 'api-keys.create') {
    const created = result as {
      key: string;
      apiKeyId: string;
      merchantId: string;
      address: string;
      mode: string;
    };
    console.log(`api key id: ${created.apiKeyId} (${created.mode})`);
    console.log(`merchant id: ${created.merchantId}`);
    console.log(`wallet: ${created.address}`);
    console.log('The key is shown once; store it now:');
    console.log(created.key);
  } else {
    console.log(JSON.stringify(result, null, 2));
  }
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(error.message ? `${error.message}\n${usage}` : usage);
    process.exitCode = 2;
    return;
  }
  console.error((error as Error).message);
  process.exitCode = 1;
});
