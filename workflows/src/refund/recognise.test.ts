import type { OutgoingTransferLog } from '@checkout/chain';
import type { RefundRow } from '@checkout/db';
import { describe, expect, it } from 'vitest';
import { matchRefundPayments } from './recognise.ts';

const wallet = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const customer = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';
const token = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const readyAt = Date.parse('2026-03-01T10:00:00Z');

const refund = (id: string, amount: bigint, createdAt = readyAt): RefundRow =>
  ({
    id,
    token_address: token,
    from_address: wallet,
    refund_address: customer,
    amount: amount.toString(),
    paid_amount: '0',
    created_at: new Date(createdAt),
    updated_at: new Date(readyAt),
  }) as RefundRow;

const log = (amount: bigint, at: { block: bigint; index: number }, to = customer): OutgoingTransferLog => ({
  txHash: `0x${at.block.toString(16).padStart(64, '0')}`,
  logIndex: at.index,
  blockNumber: at.block,
  blockHash: `0x${'b'.repeat(64)}`,
  token: token as `0x${string}`,
  from: wallet as `0x${string}`,
  to: to as `0x${string}`,
  amount,
});

describe('matchRefundPayments', () => {
  const mined = new Map([
    [10n, readyAt - 3_600_000],
    [20n, readyAt + 5_000],
    [21n, readyAt + 8_000],
  ]);

  it('takes any amount to the refund address mined after the refund was ready, until it is paid in full', () => {
    const paid = matchRefundPayments(
      [refund('r1', 7n)],
      [
        log(7n, { block: 10n, index: 0 }), // before the refund was ready to pay
        log(6n, { block: 20n, index: 0 }), // a part payment
        log(7n, { block: 20n, index: 1 }, wallet), // another receiver
        log(5n, { block: 21n, index: 3 }), // the rest and more
        log(1n, { block: 21n, index: 4 }), // after it was paid in full
      ],
      mined,
      new Set(),
    );
    expect(paid.map((p) => [p.refund.id, p.log.blockNumber, p.log.logIndex])).toEqual([
      ['r1', 20n, 0],
      ['r1', 21n, 3],
    ]);
  });

  it('gives a transfer to the refund still due exactly its amount before an older one it only fits', () => {
    const refunds = [refund('older', 9n, readyAt - 2_000), refund('newer', 4n, readyAt - 1_000)];
    const paid = matchRefundPayments(refunds, [log(4n, { block: 20n, index: 0 })], mined, new Set());
    expect(paid.map((p) => p.refund.id)).toEqual(['newer']);
    const partly = { ...refund('older', 9n, readyAt - 2_000), paid_amount: '5' } as RefundRow;
    const rest = matchRefundPayments(
      [partly, refunds[1]!],
      [log(4n, { block: 20n, index: 0 })],
      mined,
      new Set(),
    );
    expect(rest.map((p) => p.refund.id)).toEqual(['older']);
  });

  it('gives each transfer to one refund, the oldest it fits, and skips one that pays a refund already', () => {
    const refunds = [refund('newer', 7n, readyAt - 1_000), refund('older', 7n, readyAt - 2_000)];
    const first = log(7n, { block: 20n, index: 0 });
    const second = log(7n, { block: 21n, index: 0 });
    expect(matchRefundPayments(refunds, [first, second], mined, new Set()).map((p) => p.refund.id)).toEqual([
      'older',
      'newer',
    ]);
    const taken = new Set([`${first.txHash}:0`]);
    expect(matchRefundPayments(refunds, [first], mined, taken)).toEqual([]);
  });
});
