import { describe, expect, it } from 'vitest';
import {
  type AmountHeld,
  type HashTerms,
  matchesPayerlessSession,
  mayTakeAsFallback,
  minedBeforeOpening,
  type PayerlessTerms,
  refuseHash,
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

describe('refuseHash: a hash pays only its payer’s session, from its opening on', () => {
  const payer = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
  const thief = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
  const terms: HashTerms = {
    tokenAddress: usdt,
    amount: 25_000000n,
    reserved: false,
    payer: payer.toLowerCase(),
    startBlock: 100n,
    openedAt: 0,
  };
  const mined = { from: payer, blockNumber: 100n, paid: { token: usdt, amount: 25_000000n } };

  it('takes the payer’s transaction, pending or mined from the opening block on, whatever it paid', () => {
    expect(refuseHash(terms, mined)).toBeNull();
    expect(refuseHash(terms, { from: payer, blockNumber: null })).toBeNull();
    expect(refuseHash(terms, { ...mined, paid: { token: usdt, amount: 30_000000n } })).toBeNull();
    expect(refuseHash(terms, { ...mined, paid: null })).toBeNull();
  });

  it('refuses another sender’s transaction, even of the exact amount', () => {
    expect(refuseHash(terms, { ...mined, from: thief })).toBe('other_payer');
    expect(refuseHash(terms, { from: thief, blockNumber: null })).toBe('other_payer');
  });

  it('refuses a transaction mined before the session opened, even the payer’s', () => {
    expect(refuseHash(terms, { ...mined, blockNumber: 99n })).toBe('before_opening');
    expect(refuseHash(terms, { ...mined, from: thief, blockNumber: 99n })).toBe('before_opening');
  });

  it('lets a session without a payer be paid by its exact reserved amount only', () => {
    const payerless: HashTerms = { ...terms, reserved: true, payer: null, amount: 25_000137n };
    expect(refuseHash(payerless, { from: thief, blockNumber: null })).toBe('other_payer');
    expect(
      refuseHash(payerless, { ...mined, from: thief, paid: { token: usdt, amount: 25_000137n } }),
    ).toBeNull();
    expect(refuseHash(payerless, { ...mined, from: thief, paid: { token: usdt, amount: 25_000000n } })).toBe(
      'other_payer',
    );
    expect(refuseHash(payerless, { ...mined, from: thief, paid: { token: busd, amount: 25_000137n } })).toBe(
      'other_payer',
    );
  });

  it('lets another sender pay a session with a payer and a reserved amount only by that amount', () => {
    const both: HashTerms = { ...terms, reserved: true, amount: 25_000137n };
    expect(refuseHash(both, { from: thief, blockNumber: null })).toBeNull();
    expect(refuseHash(both, { ...mined, from: thief, paid: { token: usdt, amount: 25_000137n } })).toBeNull();
    expect(refuseHash(both, { ...mined, from: thief })).toBe('other_payer');
  });
});

describe('minedBeforeOpening', () => {
  const session = { startBlock: 100n, openedAt: Date.parse('2026-01-01T12:00:00.950Z') };
  const at = (iso: string) => Date.parse(iso);

  it('counts blocks before the first block as older, whatever their time', () => {
    expect(minedBeforeOpening(session, 99n, at('2026-01-01T12:05:00Z'))).toBe(true);
  });

  it('counts a block stamped before the second the session opened in as older, even past the first block', () => {
    expect(minedBeforeOpening(session, 101n, at('2026-01-01T11:59:59Z'))).toBe(true);
  });

  it('takes blocks of the opening second on (block times are whole seconds) and blocks of unknown time', () => {
    expect(minedBeforeOpening(session, 100n, at('2026-01-01T12:00:00Z'))).toBe(false);
    expect(minedBeforeOpening(session, 100n, at('2026-01-01T12:00:01Z'))).toBe(false);
    expect(minedBeforeOpening(session, 100n, null)).toBe(false);
  });
});
