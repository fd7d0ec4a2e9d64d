import { describe, expect, it } from 'vitest';
import type { UnmatchedFate } from './shared.ts';
import { fateSealed, unmatchedStatus } from './status.ts';

const title = 'Unmatched transfer 7 BUSD · wrong amount · from 0x7099…79c8';
const none = { expectedPayment: null, resolvedPaymentId: null, refund: null };
const fate = (change: Partial<UnmatchedFate>): UnmatchedFate => ({
  title,
  status: 'open',
  ...none,
  ...change,
});
const follow = { followUntil: Date.UTC(2026, 11, 28, 12), ended: false };

describe('what the Temporal UI says of an unmatched transfer', () => {
  it('names each fate in a few words, and which of them are sealed', () => {
    const cases: Array<[UnmatchedFate, string, boolean]> = [
      [fate({}), 'open', false],
      [
        fate({ status: 'attached', expectedPayment: { id: 'e1', status: 'confirming' } }),
        'attached, being checked',
        false,
      ],
      [
        fate({ status: 'attached', expectedPayment: { id: 'e1', status: 'paid' }, resolvedPaymentId: 'r1' }),
        'attached',
        true,
      ],
      [fate({ status: 'attached', resolvedPaymentId: 'r1' }), 'attached', true],
      [
        fate({ status: 'refunded', refund: { id: 'f1', status: 'awaiting_address' } }),
        'refund awaiting address',
        false,
      ],
      [fate({ status: 'refunded', refund: { id: 'f1', status: 'sent' } }), 'refund sent', false],
      [fate({ status: 'refunded', refund: { id: 'f1', status: 'confirmed' } }), 'refunded', true],
      [fate({ status: 'dismissed' }), 'dismissed', true],
      [fate({ status: 'reversed' }), 'reversed', true],
    ];
    for (const [shown, words, sealed] of cases) {
      expect(unmatchedStatus(shown, follow).summary).toBe(`${title} · ${words}`);
      expect(fateSealed(shown)).toBe(sealed);
    }
  });

  it('says what each fate means, and until when an unsealed one is followed', () => {
    expect(unmatchedStatus(fate({ status: 'attached', resolvedPaymentId: 'r1' }), follow).details).toBe(
      '- **Attached** to resolved payment `r1` as a top-up',
    );
    expect(unmatchedStatus(fate({}), follow).details).toBe(
      '- **Open**: the merchant may attach it to an order, refund it or dismiss it\n- followed until 2026-12-28T12:00:00Z, or until its fate is sealed',
    );
    const ended = unmatchedStatus(fate({}), { ...follow, ended: true });
    expect(ended.summary).toBe(`${title} · open, no longer followed`);
    expect(ended.details).toContain(
      '- no longer followed since 2026-12-28T12:00:00Z: a change to it follows it again',
    );
    // A sealed fate is the last word, whenever the workflow ends.
    expect(unmatchedStatus(fate({ status: 'dismissed' }), { ...follow, ended: true })).toEqual({
      summary: `${title} · dismissed`,
      details: '- **Dismissed** by the merchant',
    });
  });
});
