/**
 * Per-quote deposit addresses for fiat offramps, derived from the treasury's HD mnemonic (BIP-32/44,
 * Ethereum's path) so that every address can be swept later without storing a key per quote.
 */
import { type Address, bytesToHex, type Hex, sha256 } from 'viem';
import { english, mnemonicToAccount } from 'viem/accounts';

/** A derived deposit account; the private key is present only when explicitly asked for. */
export interface DepositAccount {
  address: Address;
  /** BIP-44 derivation path, e.g. `m/44'/60'/0'/0/7`. */
  path: string;
  privateKey?: Hex;
}

/** What to derive: a BIP-39 mnemonic (English word list) and a non-hardened address index. */
export interface DeriveDepositAccountParameters {
  mnemonic: string;
  index: number;
  /** Only treasury sweeps need the key; everything else should never hold it. */
  includePrivateKey?: boolean;
}

/**
 * The default of `DEPOSIT_MNEMONIC` outside production: public, so never for real funds, and not the dev
 * chain's mnemonic (`devMnemonic`), whose addresses are the funded development accounts — the treasury, the
 * shoppers and the demo merchant's wallet — so no quote's deposit address is one of them.
 */
export const devDepositMnemonic = 'pass flock bar sure type orange zebra ketchup effort place aim unaware';

const maxIndex = 2 ** 31;
const wordCounts = new Set([12, 15, 18, 21, 24]);
let wordIndexes: Map<string, number> | undefined;

/** Derives the deposit account at `m/44'/60'/0'/0/<index>`: the address and path, and the key on request. */
export function deriveDepositAccount(
  params: DeriveDepositAccountParameters & { includePrivateKey: true },
): DepositAccount & { privateKey: Hex };
export function deriveDepositAccount(params: DeriveDepositAccountParameters): DepositAccount;
export function deriveDepositAccount(params: DeriveDepositAccountParameters): DepositAccount {
  const { index } = params;
  if (!Number.isSafeInteger(index) || index < 0 || index >= maxIndex) {
    throw new RangeError(`deposit index must be an integer from 0 to ${maxIndex - 1}, got ${index}`);
  }
  const mnemonic = checkedMnemonic(params.mnemonic);
  const path = `m/44'/60'/0'/0/${index}` as const;
  const account = mnemonicToAccount(mnemonic, { path });
  if (params.includePrivateKey !== true) return { address: account.address, path };
  const key = account.getHdKey().privateKey;
  if (key === null) throw new Error(`no private key derived at ${path}`);
  return { address: account.address, path, privateKey: bytesToHex(key) };
}

/**
 * The mnemonic with single spaces, after checking its words and BIP-39 checksum: the seed hashes the
 * exact text, so a typo or stray whitespace would silently derive other addresses that nobody can sweep.
 */
function checkedMnemonic(input: string): string {
  const words = input.trim().split(/\s+/);
  if (!wordCounts.has(words.length)) throw new Error('mnemonic must have 12, 15, 18, 21 or 24 words');
  wordIndexes ??= new Map(english.map((word, i) => [word, i]));
  let bits = '';
  for (const [position, word] of words.entries()) {
    const wordIndex = wordIndexes.get(word);
    if (wordIndex === undefined) throw new Error(`mnemonic word ${position + 1} is not in the BIP-39 list`);
    bits += wordIndex.toString(2).padStart(11, '0');
  }
  // The checksum is the first bits (4 to 8) of the entropy's SHA-256.
  const checksumBits = bits.length / 33;
  const entropy = Uint8Array.from(bits.slice(0, -checksumBits).match(/.{8}/g)!, (b) => Number.parseInt(b, 2));
  const expected = sha256(entropy, 'bytes')[0]!.toString(2).padStart(8, '0').slice(0, checksumBits);
  if (bits.slice(-checksumBits) !== expected) throw new Error('mnemonic checksum does not match');
  return words.join(' ');
}
