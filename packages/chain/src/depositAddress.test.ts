import { describe, expect, it } from 'vitest';
import { deriveDepositAccount, devDepositMnemonic } from './depositAddress.ts';
import { devAccounts, devMnemonic } from './index.ts';

describe('deriveDepositAccount', () => {
  it("derives Hardhat's default accounts from the dev mnemonic, without the key by default", () => {
    for (const index of [0, 1, 2]) {
      const account = deriveDepositAccount({ mnemonic: devMnemonic, index });
      expect(account).toEqual({ address: devAccounts[index]!.address, path: `m/44'/60'/0'/0/${index}` });
      expect('privateKey' in account).toBe(false);
    }
  });

  it('gives development deposits addresses of their own, none a funded dev account', () => {
    const funded = new Set(
      Array.from(
        { length: 20 },
        (_, index) => deriveDepositAccount({ mnemonic: devMnemonic, index }).address,
      ),
    );
    expect(funded).toContain('0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'); // the demo merchant's wallet
    for (let index = 0; index < 50; index++) {
      expect(funded).not.toContain(deriveDepositAccount({ mnemonic: devDepositMnemonic, index }).address);
    }
  });

  it('returns the private key only when asked, for sweeps', () => {
    for (const index of [0, 1, 2]) {
      const account = deriveDepositAccount({ mnemonic: devMnemonic, index, includePrivateKey: true });
      expect(account.privateKey).toBe(devAccounts[index]!.privateKey);
      expect(account.address).toBe(devAccounts[index]!.address);
    }
    expect(
      'privateKey' in deriveDepositAccount({ mnemonic: devMnemonic, index: 3, includePrivateKey: false }),
    ).toBe(false);
  });

  it('is deterministic and differs per index', () => {
    const indexes = [0, 1, 2, 3, 10, 1000, 2 ** 31 - 1];
    const addresses = indexes.map((index) => deriveDepositAccount({ mnemonic: devMnemonic, index }).address);
    expect(new Set(addresses).size).toBe(indexes.length);
    expect(indexes.map((index) => deriveDepositAccount({ mnemonic: devMnemonic, index }).address)).toEqual(
      addresses,
    );
  });

  it('ignores surrounding and repeated whitespace in the mnemonic', () => {
    const spaced = `  ${devMnemonic.replaceAll(' ', '  \n')}\n`;
    expect(deriveDepositAccount({ mnemonic: spaced, index: 1 }).address).toBe(devAccounts[1]!.address);
  });

  it('refuses indexes that are negative, fractional, unsafe or hardened', () => {
    for (const index of [-1, 1.5, 2 ** 31, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => deriveDepositAccount({ mnemonic: devMnemonic, index })).toThrow(RangeError);
    }
  });

  it('refuses a mnemonic with a wrong word count, an unknown word or a bad checksum', () => {
    const words = devMnemonic.split(' ');
    const attempts = [
      words.slice(0, 11).join(' '),
      [...words.slice(0, 11), 'junkk'].join(' '),
      // Every word valid, but the last word's checksum bits do not match.
      [...words.slice(0, 11), 'test'].join(' '),
      devMnemonic.toUpperCase(),
    ];
    for (const mnemonic of attempts) {
      expect(() => deriveDepositAccount({ mnemonic, index: 0 })).toThrow(/mnemonic/);
    }
  });
});
