import { describe, expect, it } from 'vitest';
import { openDatabase } from './openDatabase.ts';
import { transitionOfframp } from './repositories/offramps.ts';
import {
  checkTransition,
  IllegalTransitionError,
  offrampTransitions,
  onrampTransitions,
} from './transitions.ts';

describe('ramp status machines', () => {
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
    } finally {
      await db.close();
    }
  });
});
