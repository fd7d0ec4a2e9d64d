/** What the modules that read transactions and their logs share. */
import { type Chain, type Client, parseEventLogs, type TransactionReceipt, type Transport } from 'viem';
import { erc20Abi } from './erc20.ts';

/** A client of any chain, or of none configured: reads only. */
export type AnyClient = Client<Transport, Chain | undefined>;

/** Every log of the receipt that decodes as an ERC-20 Transfer (ERC-721 Transfers, with 4 topics, do not). */
export function erc20Transfers(receipt: TransactionReceipt) {
  const live = receipt.logs.filter((log) => !log.removed);
  return parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: live, strict: true });
}

/** Whether two hex texts (addresses, hashes) are equal in any letter case. */
export function sameHex(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** A catch handler that turns one expected "not there" error into `undefined` and rethrows the rest. */
export function unlessError(type: new (...args: never[]) => Error): (error: unknown) => undefined {
  return (error) => {
    if (error instanceof type) return undefined;
    throw error;
  };
}
