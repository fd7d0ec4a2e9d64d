import { describe, expect, it } from 'vitest';
import {
  type AmountHeld,
  matchesPayerlessSession,
  mayTakeAsFallback,
  type PayerlessTerms,
  sessionHoldingAmount,
} from './matching.ts';

const usdt = '0x55d398326f99059fF775485246999027B3197955';
const busd = '0xe9e7CEA3DedcA5984780Bafc599bD69ADd087D56';
const session: PayerlessTerms = { tokenAddress: usdt, amount: 25_000137n, reserved: true };

describe('matchesPayerlessSession', () => {
  it('takes exactly the reserved amount of the token, whatever the address case', () => {
    expect(matchesPayerlessSession(session, { token: usdt.toLowerCase(), amount: 25_000137n })).toBe(true);
  });

  it('takes no other amount, not even one base unit off, and no price without its tail', () => {
    for (const amount of [25_000136n, 25_000138n, 25_000000n, 50_000274n, 0n])
      expect(matchesPayerlessSession(session, { token: usdt, amount })).toBe(false);
  });

  it('takes no other token of the same amount', () => {
    expect(matchesPayerlessSession(session, { token: busd, amount: 25_000137n })).toBe(false);
  });

  it('takes nothing for a session without a reserved amount', () => {
    expect(
      matchesPayerlessSession({ ...session, reserved: false }, { token: usdt, amount: 25_000137n }),
    ).toBe(false);
  });
});

describe('which session a transfer belongs to', () => {
  const held: AmountHeld[] = [
    { tokenAddress: usdt.toLowerCase(), amount: 25_000137n, sessionId: 'a' },
    { tokenAddress: usdt.toLowerCase(), amount: 25_000912n, sessionId: 'b' },
    { tokenAddress: busd.toLowerCase(), amount: 25_000137n, sessionId: 'c' },
  ];

  it('is the one session holding its exact amount of its token', () => {
    expect(sessionHoldingAmount({ token: usdt, amount: 25_000137n }, held)).toBe('a');
    expect(sessionHoldingAmount({ token: usdt, amount: 25_000912n }, held)).toBe('b');
    expect(sessionHoldingAmount({ token: busd, amount: 25_000137n }, held)).toBe('c');
  });

  it('is none for an amount nobody holds', () => {
    expect(sessionHoldingAmount({ token: usdt, amount: 25_000000n }, held)).toBeNull();
    expect(sessionHoldingAmount({ token: usdt, amount: 25_000138n }, [])).toBeNull();
  });

  it('is never a payer’s fallback when another session holds the amount', () => {
    expect(mayTakeAsFallback('wallet-session', { token: usdt, amount: 25_000137n }, held)).toBe(false);
    expect(mayTakeAsFallback('a', { token: usdt, amount: 25_000137n }, held)).toBe(true);
    expect(mayTakeAsFallback('wallet-session', { token: usdt, amount: 24_5n }, held)).toBe(true);
  });
});
