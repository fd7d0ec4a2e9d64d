import { describe, expect, it } from 'vitest';
import {
  carriesReference,
  type HashTerms,
  minedBeforeOpening,
  type OwnedTransfer,
  ownerOf,
  ownershipOf,
  paymentAddressOf,
  referenceWindows,
  refuseHash,
  type SessionKeys,
  settlementOf,
} from './matching.ts';

const usdt = '0x55d398326f99059fF775485246999027B3197955';
const busd = '0xe9e7CEA3DedcA5984780Bafc599bD69ADd087D56';
const refA = `${'a'.repeat(62)}01`;
const refB = `${'b'.repeat(62)}02`;
/** A transfer call's calldata (4 + 64 bytes) with `suffix` appended. */
const calldata = (suffix = '') => `0xa9059cbb${'0'.repeat(128)}${suffix}`;
const keys = (patch: Partial<SessionKeys>): SessionKeys => ({
  sessionId: 'a',
  reference: refA,
  tokenAddress: usdt,
  amount: 25_000000n,
  reserved: true,
  depositAddress: null,
  ...patch,
});
const deposit = '0x00000000000000000000000000000000000d3905';

describe('carriesReference', () => {
  it('finds the reference appended to a transfer, or anywhere in a bundle, whatever the case', () => {
    expect(carriesReference(calldata(refA), refA)).toBe(true);
    expect(carriesReference(`0x1234${calldata(refA.toUpperCase()).slice(2)}00ff`, `0x${refA}`)).toBe(true);
  });

  it('finds no reference that is not there, or only across a half byte', () => {
    expect(carriesReference(calldata(refB), refA)).toBe(false);
    expect(carriesReference(calldata(), refA)).toBe(false);
    expect(carriesReference(`0x0${refA}0`, refA)).toBe(false);
  });

  it('cuts every 32-byte window of an input at byte boundaries, the reference among them', () => {
    const windows = referenceWindows(`0x12${refA}34`);
    expect(windows).toContain(refA);
    expect(windows).toHaveLength(3);
    expect(referenceWindows('0x1234')).toEqual([]);
  });
});

describe('ownerOf: which session a transfer pays', () => {
  it('is the one session its transaction names, whatever the amount', () => {
    expect(ownerOf({ token: usdt, amount: 1n }, [keys({})], undefined)).toBe('a');
  });

  it('pairs a bundle naming several sessions by exact amount, or leaves it to none', () => {
    const named = [keys({}), keys({ sessionId: 'b', reference: refB, amount: 7_000000n })];
    expect(ownerOf({ token: usdt, amount: 7_000000n }, named, undefined)).toBe('b');
    expect(ownerOf({ token: usdt, amount: 8_000000n }, named, undefined)).toBeNull();
    expect(ownerOf({ token: busd, amount: 7_000000n }, named, undefined)).toBeNull();
  });

  it('is the session holding exactly its amount of its token when no session is named', () => {
    const holder = keys({ sessionId: 'held', amount: 25_000137n });
    expect(ownerOf({ token: usdt.toLowerCase(), amount: 25_000137n }, [], holder)).toBe('held');
    for (const amount of [25_000136n, 25_000138n, 25_000000n])
      expect(ownerOf({ token: usdt, amount }, [], holder)).toBeNull();
    expect(ownerOf({ token: busd, amount: 25_000137n }, [], holder)).toBeNull();
    expect(ownerOf({ token: usdt, amount: 25_000137n }, [], { ...holder, reserved: false })).toBeNull();
  });

  it('never gives the holder of an amount a transfer that names another session', () => {
    const holder = keys({ sessionId: 'held' });
    expect(ownerOf({ token: usdt, amount: 25_000000n }, [keys({ sessionId: 'b' })], holder)).toBe('b');
  });

  it('gives a transfer of its token into a deposit address to that session, whatever the amount or input', () => {
    const holder = keys({ sessionId: 'phone', reserved: false, depositAddress: deposit });
    // Rounded, net of an exchange's fee, typed by hand, or more than asked: all the session's.
    for (const amount of [25_000000n, 24_990000n, 25_100000n, 1n, 99_000000n]) {
      expect(ownershipOf({ token: usdt, amount, to: deposit.toUpperCase() }, [], holder)).toEqual({
        id: 'phone',
        by: 'deposit_address',
      });
    }
    // A transaction naming another session still pays the deposit address's session there.
    const named = [keys({ sessionId: 'b' })];
    expect(ownerOf({ token: usdt, amount: 3n, to: deposit }, named, holder)).toBe('phone');
    // Another token there pays no session (an unmatched transfer, swept to the merchant all the same).
    expect(ownerOf({ token: busd, amount: 25_000000n, to: deposit }, [], holder)).toBeNull();
    // Into the receiving address the deposit address decides nothing.
    expect(ownerOf({ token: usdt, amount: 25_000000n, to: usdt }, [], holder)).toBeNull();
  });

  it('reads a session with a deposit address at that address', () => {
    expect(paymentAddressOf({ deposit_address: deposit, receiving_address: usdt })).toBe(deposit);
    expect(paymentAddressOf({ deposit_address: null, receiving_address: usdt })).toBe(usdt);
  });
});

describe('settlementOf: transfers of one session add up', () => {
  const price = { amount: 25_000000n, decimals: 6 };
  const t = (txHash: string, amount: bigint, seenAt = 1_000, token = usdt, decimals = 6): OwnedTransfer => ({
    txHash,
    token,
    amount,
    decimals,
    seenAt,
  });
  const wait = 600_000;

  it('pays with the transfer that reaches the price, the earlier ones its parts', () => {
    expect(settlementOf([t('0x1', 25_000000n)], price, 2_000, wait, null)).toEqual({
      kind: 'pay',
      main: '0x1',
      parts: [],
      short: false,
    });
    expect(settlementOf([t('0x1', 20_000000n), t('0x2', 5_000000n)], price, 2_000, wait, null)).toEqual({
      kind: 'pay',
      main: '0x2',
      parts: ['0x1'],
      short: false,
    });
  });

  it('lets a stranger’s dust first neither settle the session nor take the shopper’s payment’s place', () => {
    const dust = t('0xdust', 1n);
    expect(settlementOf([dust], price, 2_000, wait, null)).toEqual({ kind: 'wait', at: 1_000 + wait });
    expect(settlementOf([dust, t('0xshopper', 25_000000n)], price, 2_000, wait, null)).toEqual({
      kind: 'pay',
      main: '0xshopper',
      parts: ['0xdust'],
      short: false,
    });
  });

  it('takes a short sum once its wait is over, or at the session’s expiry if that comes first', () => {
    const short = [t('0x1', 10_000000n), t('0x2', 4_000000n)];
    expect(settlementOf(short, price, 1_000 + wait, wait, null)).toEqual({
      kind: 'pay',
      main: '0x2',
      parts: ['0x1'],
      short: true,
    });
    expect(settlementOf(short, price, 2_000, wait, 5_000)).toEqual({ kind: 'wait', at: 5_000 });
  });

  it('adds up only one token’s transfers, scaled across decimals, and counts one transaction once', () => {
    const mixed = [t('0x1', 20_000000n), t('0x2', 5n * 10n ** 18n, 1_000, busd, 18)];
    expect(settlementOf(mixed, price, 2_000, wait, null).kind).toBe('wait');
    const twice = [t('0x1', 12_500000n), t('0x1', 12_500000n)];
    expect(settlementOf(twice, price, 2_000, wait, null)).toEqual({
      kind: 'pay',
      main: '0x1',
      parts: [],
      short: false,
    });
    expect(settlementOf([t('0x1', 25n * 10n ** 18n, 1_000, busd, 18)], price, 2_000, wait, null).kind).toBe(
      'pay',
    );
  });

  it('has nothing to settle without transfers', () => {
    expect(settlementOf([], price, 2_000, wait, null)).toEqual({ kind: 'none' });
  });
});

describe('refuseHash: a hash pays a session only when its transaction says so', () => {
  const terms: HashTerms = {
    reference: refA,
    tokenAddress: usdt,
    amount: 25_000137n,
    reserved: true,
    depositAddress: null,
    startBlock: 100n,
    openedAt: 1_700_000_000_000,
  };

  it('takes a transaction carrying the reference, pending or mined from the opening on, whatever it paid', () => {
    expect(refuseHash(terms, { input: calldata(refA), blockNumber: null })).toBeNull();
    expect(refuseHash(terms, { input: calldata(refA), blockNumber: 100n, paid: null })).toBeNull();
  });

  it('refuses a transaction without the reference, whoever sent it', () => {
    expect(refuseHash(terms, { input: calldata(), blockNumber: null })).toBe('not_for_session');
    expect(refuseHash(terms, { input: calldata(refB), blockNumber: 101n, paid: null })).toBe(
      'not_for_session',
    );
    const other = { token: usdt, amount: 25_000000n };
    expect(refuseHash(terms, { input: calldata(), blockNumber: 101n, paid: other })).toBe('not_for_session');
  });

  it('takes a transaction that lost its reference only when it pays exactly the held amount', () => {
    const exact = { token: usdt, amount: 25_000137n };
    expect(refuseHash(terms, { input: calldata(), blockNumber: 101n, paid: exact })).toBeNull();
    expect(refuseHash(terms, { input: calldata(), blockNumber: null, paid: exact })).toBeNull();
    expect(
      refuseHash({ ...terms, reserved: false }, { input: calldata(), blockNumber: 101n, paid: exact }),
    ).toBe('not_for_session');
    expect(refuseHash(terms, { input: calldata(), blockNumber: 101n, paid: { ...exact, token: busd } })).toBe(
      'not_for_session',
    );
  });

  it('takes, for a session with a deposit address, any amount of its token paid there', () => {
    const phone = { ...terms, reserved: false, depositAddress: deposit };
    expect(
      refuseHash(phone, { input: calldata(), blockNumber: 101n, paid: { token: usdt, amount: 7n } }),
    ).toBeNull();
    expect(
      refuseHash(phone, { input: calldata(), blockNumber: 101n, paid: { token: busd, amount: 7n } }),
    ).toBe('not_for_session');
    expect(refuseHash(phone, { input: calldata(), blockNumber: 101n, paid: null })).toBe('not_for_session');
  });

  it('refuses a transaction mined before the session opened, even carrying its reference', () => {
    expect(refuseHash(terms, { input: calldata(refA), blockNumber: 99n })).toBe('before_opening');
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
