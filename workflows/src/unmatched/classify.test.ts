import { describe, expect, it } from 'vitest';
import { classifyTransfer, type SessionAround, type TransferFacts } from './classify.ts';

const busd = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const payer = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const phone = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';
const units = (whole: string) => BigInt(whole.replace('.', '')) * 10n ** 16n; // 2 decimals → 18
const session = (patch: Partial<SessionAround>): SessionAround => ({
  id: 's',
  payer,
  status: 'awaiting_payment',
  reserved: false,
  tokenAddress: busd,
  resolvedPaymentId: null,
  amount: units('7.00'),
  decimals: 18,
  ...patch,
});
const transfer = (
  amount: string,
  from = payer,
  keys: Pick<TransferFacts, 'owner' | 'named'> = { owner: null, named: [] },
): TransferFacts => ({
  from,
  txFrom: from,
  tokenAddress: busd,
  amount: units(amount),
  decimals: 18,
  ...keys,
});
const naming = (id: string) => ({ owner: { id, by: 'reference' as const }, named: [id] });
const tolerance = 500n;

describe('classifyTransfer', () => {
  it('leaves to the open session it names what that session takes, however long it takes', () => {
    expect(classifyTransfer(transfer('7.00', phone, naming('s')), [session({})], tolerance).wait).toBe(
      'session',
    );
    expect(classifyTransfer(transfer('3.00', phone, naming('s')), [session({})], tolerance).wait).toBe(
      'session',
    );
  });

  it('leaves to a session what went to its deposit address; after it is paid, a second transfer there is a duplicate', () => {
    const byDeposit = { owner: { id: 's', by: 'deposit_address' as const }, named: [], depositOf: 's' };
    const waiting = session({ payer: null });
    expect(classifyTransfer(transfer('6.93', phone, byDeposit), [waiting], tolerance).wait).toBe('session');
    const paid = session({ payer: null, status: 'resolved', resolvedPaymentId: 'rp' });
    expect(classifyTransfer(transfer('7.00', phone, byDeposit), [paid], tolerance)).toMatchObject({
      wait: null,
      kind: 'duplicate',
      resolvedPaymentId: 'rp',
    });
    // Another token there: no session takes it, and it is named near the session whose address it reached.
    const other = { owner: null, named: [], depositOf: 's' };
    expect(classifyTransfer(transfer('1.00', phone, other), [waiting], tolerance)).toMatchObject({
      wait: null,
      kind: 'wrong_amount',
      near: [waiting],
    });
  });

  it('waits for no session its sender declared: without a reference or a held amount, nothing takes it', () => {
    expect(classifyTransfer(transfer('7.00'), [session({})], tolerance)).toMatchObject({
      wait: null,
      kind: 'wrong_amount',
    });
    const closedNamed = session({ status: 'closed' });
    expect(classifyTransfer(transfer('7.00', phone, naming('s')), [closedNamed], tolerance).wait).toBeNull();
  });

  it('calls a second payment of a paid order a duplicate of that order', () => {
    const paid = session({ id: 'paid', status: 'resolved', resolvedPaymentId: 'rp' });
    expect(classifyTransfer(transfer('7.00'), [paid], tolerance)).toMatchObject({
      wait: null,
      kind: 'duplicate',
      resolvedPaymentId: 'rp',
      near: [paid],
    });
  });

  it('calls a payment to an attempt given up a closed attempt naming it, before a paid order of its payer', () => {
    const closed = session({ id: 'closed', status: 'closed', amount: units('12.50') });
    const paid = session({ id: 'paid', status: 'resolved', resolvedPaymentId: 'rp', amount: units('13.00') });
    expect(classifyTransfer(transfer('12.50'), [paid, closed], tolerance)).toMatchObject({
      kind: 'closed_attempt',
      near: [closed],
      resolvedPaymentId: null,
    });
    expect(
      classifyTransfer(transfer('3.00', phone, { owner: null, named: ['closed'] }), [closed], tolerance),
    ).toMatchObject({ kind: 'closed_attempt', near: [closed] });
  });

  it('calls a rounded QR transfer a wrong amount near the QR session, and waits for an exactly held amount', () => {
    const qr = session({ id: 'qr', payer: null, reserved: true, amount: units('7.00') + 223n * 10n ** 12n });
    expect(classifyTransfer(transfer('7.00', phone), [qr], tolerance)).toMatchObject({
      wait: null,
      kind: 'wrong_amount',
      near: [qr],
    });
    const held = { owner: { id: 'qr', by: 'amount' as const }, named: [] };
    expect(
      classifyTransfer({ ...transfer('7.00', phone, held), amount: qr.amount }, [qr], tolerance).wait,
    ).toBe('reserved');
  });

  it('calls anything else unexpected, near the address’s latest sessions', () => {
    const other = session({ id: 'other', payer: phone });
    expect(classifyTransfer(transfer('50.00'), [other], tolerance)).toMatchObject({
      wait: null,
      kind: 'unexpected',
      near: [other],
    });
  });
});
