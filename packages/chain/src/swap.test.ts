import { describe, expect, it } from 'vitest';
import { devDeployment } from './bootstrap.ts';
import { pairAddress } from './swap.ts';

describe('pairAddress', () => {
  it('does not depend on token order and matches the known dev pools', () => {
    const { factory, tokens, pairs } = devDeployment(97);
    expect(pairAddress(factory, tokens.BUSD.address, tokens.DAI.address)).toBe(pairs['BUSD/DAI']);
    expect(pairAddress(factory, tokens.DAI.address, tokens.BUSD.address)).toBe(pairs['BUSD/DAI']);
  });
});
