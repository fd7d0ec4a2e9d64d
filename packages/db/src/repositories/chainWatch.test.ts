import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openTestDatabase, testDatabaseUnavailable } from '../testDatabase.ts';
import {
  listQuotesWithoutWatchStart,
  listSessionsAwaiting,
  listWaitingAddresses,
  recordChainProgress,
} from './chainWatch.ts';

const chainId = 137;
const shop = '0x00000000000000000000000000000000000000aa';
/** The reference of session `name`: 64 hex digits ending in its number. */
const referenceOf = (name: number) => String(name).padStart(64, '0');
const windows = { sessionTtlMinutes: 1440, graceMinutes: 60 };

/** A session row as the checkout writes it; the rows it references are left out (their keys are not checked). */
function session(
  name: number,
  at: { expiresIn?: string; createdAgo?: string; status?: string; resolved?: boolean },
) {
  const id = `00000000-0000-4000-8000-${String(name).padStart(12, '0')}`;
  return sql`insert into checkout_sessions (id, expected_payment_id, product_id, merchant_id, email, custom_fields,
      payment_token_address, chain_id, expected_token, expected_token_amount, receiving_address, status,
      required_confirmations, start_block, expires_at, created_at, updated_at, resolved_payment_id, reference)
    values (${id}, ${id}, ${id}, ${id}, '', '{}', '0x', ${chainId}, '{}', 1, ${shop},
      ${at.status ?? 'awaiting_payment'}, 1, ${name},
      ${at.expiresIn === undefined ? null : sql`now() + ${at.expiresIn}::interval`},
      now() - ${at.createdAgo ?? '1 minute'}::interval, now(), ${at.resolved ? id : null}, ${referenceOf(name)})`;
}

describe.skipIf(testDatabaseUnavailable())('the chain watcher’s lists', () => {
  it('hold the sessions within their scan window and leave abandoned and paid ones out', async () => {
    const db = await openTestDatabase({ poolSize: 1 });
    try {
      await sql`set session_replication_role = replica`.execute(db.kysely);
      const rows = [
        session(1, { expiresIn: '10 minutes' }), // open
        session(2, { expiresIn: '-30 minutes', status: 'expired' }), // expired, still within the grace
        session(3, { expiresIn: '-2 hours', status: 'expired' }), // past the grace: abandoned
        session(4, { createdAgo: '30 minutes' }), // no timer, within the session life
        session(5, { createdAgo: '3 days' }), // no timer, past the session life and grace
        session(6, { expiresIn: '10 minutes', status: 'paid', resolved: true }), // paid
      ];
      for (const row of rows) await row.execute(db.kysely);
      // Every session is paid into one address, and one transaction names them all.

      const waiting = await listWaitingAddresses(db.kysely, { chainId, ...windows });
      // The earliest first block among the waiting sessions: 1 (open), 2 and 4 — never 3 or 5.
      expect([...waiting.entries()]).toEqual([[shop, 1n]]);
      await sql`update checkout_sessions set start_block = 100 where id::text like '%1' or id::text like '%2'`.execute(
        db.kysely,
      );
      expect((await listWaitingAddresses(db.kysely, { chainId, ...windows })).get(shop)).toBe(4n);

      const told = await listSessionsAwaiting(db.kysely, {
        chainId,
        to: shop,
        references: [1, 2, 3, 4, 5, 6].map(referenceOf),
        token: '0xt0',
        amount: '5',
        blockNumber: 1_000n,
        ...windows,
      });
      expect(told.map((id) => Number(id.slice(-12))).sort()).toEqual([1, 2, 4]);
    } finally {
      await db.close();
    }
  });

  it('read a session’s deposit address, tell it of any transfer there, and leave its sweep out', async () => {
    const db = await openTestDatabase({ poolSize: 1 });
    try {
      await sql`set session_replication_role = replica`.execute(db.kysely);
      const deposit = '0x00000000000000000000000000000000000d3905';
      for (const name of [11, 12]) await session(name, { expiresIn: '10 minutes' }).execute(db.kysely);
      const id = (name: number) => `00000000-0000-4000-8000-${String(name).padStart(12, '0')}`;
      await sql`update checkout_sessions set deposit_address = ${deposit} where id = ${id(11)}`.execute(
        db.kysely,
      );
      const waiting = await listWaitingAddresses(db.kysely, { chainId, ...windows });
      expect(waiting.get(deposit)).toBe(11n);
      expect(waiting.get(shop)).toBe(11n);
      // Any amount there, naming no reference, tells the deposit address's session alone.
      const told = await listSessionsAwaiting(db.kysely, {
        chainId,
        to: deposit,
        references: [],
        token: '0xt0',
        amount: '123',
        blockNumber: 1_000n,
        ...windows,
      });
      expect(told).toEqual([id(11)]);
      // The sweep out of the deposit address into the receiving address is not recorded; a payment is.
      const transfer = (from: string, to: string, logIndex: number) => ({
        txHash: `0x${'ab'.repeat(32)}`,
        logIndex,
        blockNumber: 20n,
        blockHash: `0x${'cd'.repeat(32)}`,
        token: '0x00000000000000000000000000000000000000t0',
        from,
        txFrom: from,
        txInput: '',
        to,
        amount: 5n,
      });
      const recorded = await recordChainProgress(db.kysely, {
        chainId,
        transfers: [transfer(deposit, shop, 0), transfer(shop, deposit, 1)],
        covered: new Map(),
        dropped: [],
        position: { nextBlock: 21n, lastBlockHash: null, headBlock: 21n },
      });
      expect(recorded.map((t) => t.logIndex)).toEqual([1]);
    } finally {
      await db.close();
    }
  });

  it('tell a session holding an amount only of a transfer of exactly it, and a session of a transfer naming its reference', async () => {
    const db = await openTestDatabase({ poolSize: 1 });
    try {
      await sql`set session_replication_role = replica`.execute(db.kysely);
      for (const name of [7, 8, 9]) await session(name, { expiresIn: '10 minutes' }).execute(db.kysely);
      const id = (name: number) => `00000000-0000-4000-8000-${String(name).padStart(12, '0')}`;
      // 7 and 8 hold amounts of their own; 9 holds none.
      await sql`update checkout_sessions set amount_tail = 1 where id in (${id(7)}, ${id(8)})`.execute(
        db.kysely,
      );
      for (const [name, amount] of [
        [7, '1000001'],
        [8, '1000002'],
      ] as const) {
        await sql`insert into checkout_payment_amounts (chain_id, receiving_address, token_address, amount, session_id, reserved_until)
          values (${chainId}, ${shop}, '0xt0', ${amount}, ${id(name)}, now() + interval '1 hour')`.execute(
          db.kysely,
        );
      }
      const told = async (amount: string, token = '0xt0', references: string[] = []) =>
        (
          await listSessionsAwaiting(db.kysely, {
            chainId,
            to: shop,
            references,
            token,
            amount,
            blockNumber: 1_000n,
            ...windows,
          })
        )
          .map((e) => Number(e.slice(-12)))
          .sort();
      expect(await told('1000001')).toEqual([7]);
      expect(await told('1000002')).toEqual([8]);
      // Another amount, or the amount in another token, wakes no session.
      expect(await told('1000003')).toEqual([]);
      expect(await told('1000001', '0xt1')).toEqual([]);
      // A transfer naming 9 wakes it (and the session whose amount it is); a reference no session has, none.
      expect(await told('1000002', '0xt0', [referenceOf(9)])).toEqual([8, 9]);
      expect(await told('1000003', '0xt0', [referenceOf(99)])).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('hold the quotes open or paying out, and others only for the grace after their expiry or last change', async () => {
    const db = await openTestDatabase({ poolSize: 1 });
    try {
      await sql`set session_replication_role = replica`.execute(db.kysely);
      const quote = (name: number, status: string, expiredAgo: string, changedAgo: string) => {
        const id = `00000000-0000-4000-8000-${String(name).padStart(12, '0')}`;
        return sql`insert into quotes (id, user_id, merchant_id, status, deposit_token, deposit_token_chain, chain_id,
            network, token_address, token_decimals, deposit_index, deposit_address, expires_at, created_at, updated_at)
          values (${id}, ${id}, ${id}, ${status}, 'usdc', 'polygon', ${chainId}, 'polygon', '0x', 6, ${name},
            ${`0x${name}`}, now() - ${expiredAgo}::interval, now() - interval '3 days',
            now() - ${changedAgo}::interval)`.execute(db.kysely);
      };
      await quote(1, 'open', '2 days', '2 days'); // open: watched however old
      await quote(2, 'executed', '2 days', '2 days'); // paying out: watched
      await quote(3, 'expired', '30 minutes', '2 days'); // expired within the grace
      await quote(4, 'completed', '2 days', '10 minutes'); // changed within the grace
      await quote(5, 'expired', '2 days', '2 days'); // long over
      const watched = await listQuotesWithoutWatchStart(db.kysely, { chainId, graceMinutes: 60 });
      expect(watched.map((q) => Number(q.id.slice(-12))).sort()).toEqual([1, 2, 3, 4]);
    } finally {
      await db.close();
    }
  });
});
