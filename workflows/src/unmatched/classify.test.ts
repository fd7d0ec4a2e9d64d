import { describe, expect, it } from 'vitest';
import { classifyTransfer, type SessionAround } from './classify.ts';

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
const transfer = (amount: string, from = payer) => ({
  from,
  txFrom: from,
  tokenAddress: busd,
  amount: units(amount),
  decimals: 18,
});
const tolerance = 500n;

describe('classifyTransfer', () => {
  it('leaves to its sender’s open session what that session takes by the rules, however long it takes', () => {
    expect(classifyTransfer(transfer('7.00'), [session({})], tolerance).wait).toBe('session');
    expect(classifyTransfer(transfer('6.90'), [session({})], tolerance).wait).toBe('session');
  });

  it('waits out the claim delay for a hash when its sender’s open sessions do not take it by the rules', () => {
    expect(classifyTransfer(transfer('3.00'), [session({})], tolerance).wait).toBe('claim_delay');
    const twins = [session({ id: 'a' }), session({ id: 'b', amount: units('7.10') })];
    expect(classifyTransfer(transfer('7.05'), twins, tolerance).wait).toBe('claim_delay');
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

  it('calls a payment to an attempt given up a closed attempt', () => {
    const closed = session({ id: 'closed', status: 'closed' });
    expect(classifyTransfer(transfer('7.00'), [closed], tolerance)).toMatchObject({ kind: 'closed_attempt' });
  });

  it('calls a rounded QR transfer a wrong amount near the QR session, and waits for an exactly held amount', () => {
    const qr = session({ id: 'qr', payer: null, reserved: true, amount: units('7.00') + 223n * 10n ** 12n });
    expect(classifyTransfer(transfer('7.00', phone), [qr], tolerance)).toMatchObject({
      wait: null,
      kind: 'wrong_amount',
      near: [qr],
    });
    expect(classifyTransfer({ ...transfer('7.00', phone), amount: qr.amount }, [qr], tolerance).wait).toBe(
      'reserved',
    );
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
