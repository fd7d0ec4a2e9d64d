import { describe, expect, it } from 'vitest';
import { openDatabase } from './openDatabase.ts';
import { transitionOfframp } from './repositories/offramps.ts';
import { setPaymentDetailStatus } from './repositories/paymentDetails.ts';
import { setQuoteStatus } from './repositories/quotes.ts';
import {
  checkoutSessionTransitions,
  checkTransition,
  expectedPaymentTransitions,
  IllegalTransitionError,
  offrampTransitions,
  onrampTransitions,
  paymentDetailTransitions,
  quoteTransitions,
  refundTransitions,
  statusesBefore,
  statusesMovingTo,
  unmatchedTransferTransitions,
} from './transitions.ts';

describe('status machines', () => {
  it('have the documented moves, a final status has none, and staying put is always allowed', () => {
    const moves = (table: Readonly<Record<string, readonly string[]>>) =>
      Object.entries(table).flatMap(([from, tos]) => tos.map((to) => `${from}→${to}`));
    expect(moves(onrampTransitions)).toEqual([
      'initiated→held',
      'initiated→funds_received',
      'initiated→expired',
      'held→funds_received',
      'funds_received→sending_crypto',
      'sending_crypto→crypto_sent',
      'sending_crypto→failed',
    ]);
    expect(moves(offrampTransitions)).toEqual([
      'initiated→pending_internal_assessment',
      'initiated→failed',
      'pending_internal_assessment→sending_fiat',
      'sending_fiat→fiat_sent',
      'sending_fiat→bounced',
      'sending_fiat→failed',
      'bounced→sending_fiat',
      'bounced→failed',
    ]);
    for (const status of Object.keys(onrampTransitions) as (keyof typeof onrampTransitions)[]) {
      expect(() => checkTransition('onramp', onrampTransitions, status, status)).not.toThrow();
    }
    expect(() => checkTransition('onramp', onrampTransitions, 'crypto_sent', 'sending_crypto')).toThrow(
      IllegalTransitionError,
    );
    expect(() => checkTransition('onramp', onrampTransitions, 'expired', 'funds_received')).toThrow(
      'An onramp cannot move from expired to funds_received',
    );
    expect(moves(quoteTransitions)).toEqual(['open→executed', 'open→expired', 'executed→completed']);
    expect(() => checkTransition('quote', quoteTransitions, 'expired', 'executed')).toThrow(
      'A quote cannot move from expired to executed',
    );
    // Review statuses move freely (the partner's, or the sandbox's, decision); deactivation is for good.
    expect(paymentDetailTransitions.deactivated).toEqual([]);
    for (const from of ['initiated', 'pending', 'approved', 'failed'] as const) {
      expect(paymentDetailTransitions[from]).toContain('deactivated');
    }
    expect(() =>
      checkTransition('payment detail', paymentDetailTransitions, 'deactivated', 'approved'),
    ).toThrow('A payment detail cannot move from deactivated to approved');
  });

  it('refuse a move the machine lacks before anything is written', async () => {
    const db = await openDatabase({ kind: 'pglite-memory' });
    try {
      const queries: string[] = [];
      const logged = db.kysely.withPlugin({
        transformQuery: (args) => {
          queries.push(args.node.kind);
          return args.node;
        },
        transformResult: async (args) => args.result,
      });
      await expect(
        transitionOfframp(logged, '00000000-0000-4000-8000-000000000000', 'fiat_sent', 'bounced', null),
      ).rejects.toThrow(IllegalTransitionError);
      expect(queries).toEqual([]);
      // A legal move of a missing row is simply not applied.
      expect(
        await transitionOfframp(
          logged,
          '00000000-0000-4000-8000-000000000000',
          'sending_fiat',
          'fiat_sent',
          null,
        ),
      ).toBeUndefined();
      expect(queries).toEqual(['UpdateQueryNode']);
      // Quotes and payment details too: refused before any write.
      queries.length = 0;
      const id = '00000000-0000-4000-8000-000000000000';
      await expect(setQuoteStatus(logged, id, 'completed', 'open')).rejects.toThrow(IllegalTransitionError);
      await expect(setPaymentDetailStatus(logged, id, 'deactivated', 'approved')).rejects.toThrow(
        IllegalTransitionError,
      );
      expect(queries).toEqual([]);
    } finally {
      await db.close();
    }
  });
});

describe('checkout status machines', () => {
  it('let a session move only from the statuses its table allows', () => {
    expect(statusesBefore(checkoutSessionTransitions, 'closed').sort()).toEqual([
      'awaiting_payment',
      'closed',
      'expired',
    ]);
    expect(statusesBefore(checkoutSessionTransitions, 'expired').sort()).toEqual([
      'awaiting_payment',
      'confirming',
      'expired',
    ]);
    expect(statusesBefore(expectedPaymentTransitions, 'open').sort()).toEqual(['confirming', 'open']);
    for (const final of ['resolved', 'failed', 'closed'] as const)
      expect(checkoutSessionTransitions[final]).toEqual([]);
  });

  it('refuse a payment recorded for a closed attempt', () => {
    expect(() =>
      checkTransition('checkout session', checkoutSessionTransitions, 'closed', 'resolved'),
    ).toThrow(IllegalTransitionError);
  });
});

describe('refund and unmatched transfer machines', () => {
  it('move a row only from the statuses the step names or its table allows, never to where it is', () => {
    expect(statusesMovingTo('refund', refundTransitions, 'canceled').sort()).toEqual([
      'awaiting_address',
      'ready_to_pay',
    ]);
    expect(statusesMovingTo('refund', refundTransitions, 'sent')).toEqual(['ready_to_pay']);
    expect(statusesMovingTo('refund', refundTransitions, 'ready_to_pay', ['sent'])).toEqual(['sent']);
    // A change of a sent refund's block stays in its status.
    expect(statusesMovingTo('refund', refundTransitions, 'sent', ['sent'])).toEqual(['sent']);
    for (const final of ['confirmed', 'canceled', 'expired'] as const)
      expect(refundTransitions[final]).toEqual([]);
    expect(() => statusesMovingTo('refund', refundTransitions, 'ready_to_pay', ['confirmed'])).toThrow(
      'A refund cannot move from confirmed to ready_to_pay',
    );
    expect(statusesMovingTo('unmatched transfer', unmatchedTransferTransitions, 'dismissed')).toEqual([
      'open',
    ]);
    expect(statusesMovingTo('unmatched transfer', unmatchedTransferTransitions, 'open').sort()).toEqual([
      'attached',
      'refunded',
      'reversed',
    ]);
    expect(() =>
      statusesMovingTo('unmatched transfer', unmatchedTransferTransitions, 'open', ['dismissed']),
    ).toThrow('An unmatched transfer cannot move from dismissed to open');
  });
});
