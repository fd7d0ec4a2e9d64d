/**
 * `npm run deposit-factory:deploy -- --rpc-url <url>`: deploys `DepositForwarderFactory` on the chain behind
 * the URL at its deterministic address (through the deterministic deployment proxy, the same address on every
 * chain), from the account of `DEPOSIT_FACTORY_DEPLOYER_KEY` (a funded key, only for this). Run again, it sends
 * nothing. Prints the chain id and the factory's address: `DEPOSIT_FACTORY_ADDRESS_<CHAIN>` is that address.
 */
import { parseArgs } from 'node:util';
import { deployDepositFactory } from '@checkout/chain';
import type { Hex } from 'viem';

const { values } = parseArgs({ options: { 'rpc-url': { type: 'string' } } });
const rpcUrl = values['rpc-url'];
if (!rpcUrl) {
  process.stderr.write(
    'usage: DEPOSIT_FACTORY_DEPLOYER_KEY=0x… npm run deposit-factory:deploy -- --rpc-url <url>\n',
  );
  process.exit(2);
}
const key = process.env.DEPOSIT_FACTORY_DEPLOYER_KEY?.trim();
if (key && !/^0x[0-9a-fA-F]{64}$/.test(key)) {
  process.stderr.write('DEPOSIT_FACTORY_DEPLOYER_KEY must be 0x and 64 hex digits\n');
  process.exit(2);
}
try {
  const { chainId, address, hash } = await deployDepositFactory({
    rpcUrl,
    privateKey: key as Hex | undefined,
  });
  process.stdout.write(
    hash
      ? `chain ${chainId}: DepositForwarderFactory deployed at ${address} (tx ${hash})\n`
      : `chain ${chainId}: DepositForwarderFactory already at ${address}; nothing sent\n`,
  );
  process.stdout.write(`${address}\n`);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
