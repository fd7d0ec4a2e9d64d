/**
 * Sweeps of sessions' deposit addresses: which addresses hold confirmed payments not swept yet, the claim
 * of a sweep (its signed transaction and the sessions it sweeps) written before it is sent, and its outcome
 * with the gas it cost, shared among its sessions.
 */
import { type Kysely, sql } from 'kysely';
import type { DepositSweepRow } from '../checkoutSchema.ts';
import type { Database } from '../schema.ts';

/** A deposit address to sweep: its session, where it pays, the tokens it received and through which block. */
export interface SweepableDeposit {
  sessionId: string;
  depositAddress: string;
  receivingAddress: string;
  /** 64 hex digits, no `0x`: the forwarder's salt is derived from it. */
  reference: string;
  /** Every token recorded into the address (lowercase), the session's own and any other. */
  tokens: string[];
  /** The newest confirmed block with a transfer into the address. */
  throughBlock: bigint;
}

/**
 * The deposit addresses of the chain holding a transfer in a block up to `confirmedBlock` that no sweep
 * (claimed or mined) covers yet, oldest first.
 */
export async function listSweepableDeposits(
  db: Kysely<Database>,
  input: { chainId: number; confirmedBlock: bigint; limit: number },
): Promise<SweepableDeposit[]> {
  const rows = await db
    .selectFrom('checkout_sessions as s')
    .innerJoin('chain_transfers as t', (join) =>
      join.onRef('t.chain_id', '=', 's.chain_id').onRef('t.to_address', '=', 's.deposit_address'),
    )
    .select((eb) => [
      's.id',
      's.deposit_address',
      's.receiving_address',
      's.reference',
      sql<string[]>`array_agg(distinct t.token_address)`.as('tokens'),
      eb.fn.max(sql<string>`t.block_number::numeric`).as('through_block'),
    ])
    .where('s.chain_id', '=', input.chainId)
    .where('s.deposit_address', 'is not', null)
    .where(sql<boolean>`t.block_number::numeric <= ${input.confirmedBlock.toString()}::numeric`)
    .groupBy(['s.id', 's.deposit_address', 's.receiving_address', 's.reference'])
    .having(
      sql<boolean>`max(t.block_number::numeric) > coalesce((
        select max(ss.through_block) from deposit_sweep_sessions ss
        join deposit_sweeps w on w.id = ss.sweep_id
        where ss.session_id = s.id and w.status in ('claimed', 'mined')), -1)`,
    )
    .orderBy(sql`min(t.block_number::numeric)`)
    .limit(input.limit)
    .execute();
  return rows.map((r) => ({
    sessionId: r.id,
    depositAddress: r.deposit_address!,
    receivingAddress: r.receiving_address,
    reference: r.reference,
    tokens: r.tokens,
    throughBlock: BigInt(r.through_block),
  }));
}

/** The sweeps of the chain sent (or about to be) whose outcome is not known yet. */
export async function listClaimedSweeps(db: Kysely<Database>, chainId: number): Promise<DepositSweepRow[]> {
  return db
    .selectFrom('deposit_sweeps')
    .selectAll()
    .where('chain_id', '=', chainId)
    .where('status', '=', 'claimed')
    .orderBy('created_at')
    .execute();
}

/** A sweep's claim row: its signed transaction and nonce, `claimed` until the chain shows its outcome. */
async function insertClaim(
  trx: Kysely<Database>,
  input: { id: string; chainId: number; txHash: string; rawTransaction: string; nonce: string },
): Promise<void> {
  const now = new Date();
  await trx
    .insertInto('deposit_sweeps')
    .values({
      id: input.id,
      chain_id: input.chainId,
      status: 'claimed',
      tx_hash: input.txHash.toLowerCase(),
      raw_transaction: input.rawTransaction,
      nonce: input.nonce,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/** Claims a sweep before it is sent: its signed transaction and the sessions it covers, in one transaction. */
export async function claimSweep(
  db: Kysely<Database>,
  input: {
    id: string;
    chainId: number;
    txHash: string;
    rawTransaction: string;
    nonce: number;
    sessions: ReadonlyArray<{ sessionId: string; throughBlock: bigint }>;
  },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await insertClaim(trx, { ...input, nonce: String(input.nonce) });
    await trx
      .insertInto('deposit_sweep_sessions')
      .values(
        input.sessions.map((s) => ({
          sweep_id: input.id,
          session_id: s.sessionId,
          through_block: s.throughBlock.toString(),
          gas_spent: null,
        })),
      )
      .execute();
  });
}

/**
 * Claims the replacement of a sweep still pending: the same nonce, signed again at a higher price, covering the
 * same sessions, committed before it is sent. Both claims stay until one is mined; the other is then `dropped`.
 */
export async function claimSweepReplacement(
  db: Kysely<Database>,
  input: { id: string; replaces: DepositSweepRow; txHash: string; rawTransaction: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await insertClaim(trx, { ...input, chainId: input.replaces.chain_id, nonce: input.replaces.nonce });
    await trx
      .insertInto('deposit_sweep_sessions')
      .columns(['sweep_id', 'session_id', 'through_block'])
      .expression((eb) =>
        eb
          .selectFrom('deposit_sweep_sessions')
          .select([sql<string>`${input.id}::uuid`.as('sweep_id'), 'session_id', 'through_block'])
          .where('sweep_id', '=', input.replaces.id),
      )
      .execute();
  });
}

/** Notes that a claimed sweep was handed to the chain once more. */
export async function noteSweepBroadcast(db: Kysely<Database>, id: string): Promise<void> {
  await db
    .updateTable('deposit_sweeps')
    .set((eb) => ({ broadcasts: eb('broadcasts', '+', 1), updated_at: new Date() }))
    .where('id', '=', id)
    .execute();
}

/**
 * Records a claimed sweep's outcome: mined (or reverted) with the gas it cost, each session's share noted
 * (the last one takes the remainder); dropped when its nonce went to another transaction (its sessions are
 * swept again by a later claim).
 */
export async function settleSweep(
  db: Kysely<Database>,
  input:
    | { id: string; status: 'mined' | 'reverted'; gasUsed: bigint; gasPrice: bigint }
    | { id: string; status: 'dropped' },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const now = new Date();
    const gas =
      input.status === 'dropped'
        ? {}
        : { gas_used: input.gasUsed.toString(), gas_price: input.gasPrice.toString() };
    const moved = await trx
      .updateTable('deposit_sweeps')
      .set({ status: input.status, ...gas, updated_at: now })
      .where('id', '=', input.id)
      .where('status', '=', 'claimed')
      .executeTakeFirst();
    if (input.status === 'dropped' || (moved.numUpdatedRows ?? 0n) === 0n) return;
    const sessions = await trx
      .selectFrom('deposit_sweep_sessions')
      .select('session_id')
      .where('sweep_id', '=', input.id)
      .orderBy('session_id')
      .execute();
    const total = input.gasUsed * input.gasPrice;
    const share = total / BigInt(sessions.length);
    for (const [i, s] of sessions.entries()) {
      const spent = i === sessions.length - 1 ? total - share * BigInt(sessions.length - 1) : share;
      await trx
        .updateTable('deposit_sweep_sessions')
        .set({ gas_spent: spent.toString() })
        .where('sweep_id', '=', input.id)
        .where('session_id', '=', s.session_id)
        .execute();
    }
  });
}

/**
 * A resolved payment's share (wei) of its session's mined sweeps' gas, as a column of a query of
 * `resolved_payments`; null when none swept its deposit address.
 */
export const paymentSweepGas = sql<string | null>`(select sum(ss.gas_spent)::text from checkout_sessions s
  join deposit_sweep_sessions ss on ss.session_id = s.id
  join deposit_sweeps w on w.id = ss.sweep_id and w.status in ('mined', 'reverted')
  where s.expected_payment_id = resolved_payments.expected_payment_id
    and s.resolved_payment_id = resolved_payments.id)`;

/** The gas (wei) the mined sweeps of a session's deposit address cost it, and how many there were. */
export async function sweepGasOfSession(
  db: Kysely<Database>,
  sessionId: string,
): Promise<{ sweeps: number; gasSpent: bigint }> {
  const row = await db
    .selectFrom('deposit_sweep_sessions as ss')
    .innerJoin('deposit_sweeps as w', 'w.id', 'ss.sweep_id')
    .select((eb) => [
      eb.fn.countAll<string>().as('sweeps'),
      sql<string>`coalesce(sum(ss.gas_spent), 0)`.as('gas_spent'),
    ])
    .where('ss.session_id', '=', sessionId)
    .where('w.status', 'in', ['mined', 'reverted'])
    .executeTakeFirst();
  return { sweeps: Number(row?.sweeps ?? 0), gasSpent: BigInt(row?.gas_spent ?? 0) };
}

/** The gas (wei) the mined (or reverted) sweeps of a chain cost, and how many there were. */
export async function sweepGasOfChain(
  db: Kysely<Database>,
  chainId: number,
): Promise<{ sweeps: number; gasSpent: bigint }> {
  const row = await db
    .selectFrom('deposit_sweeps')
    .select((eb) => [
      eb.fn.countAll<string>().as('sweeps'),
      sql<string>`coalesce(sum(gas_used * gas_price), 0)`.as('gas_spent'),
    ])
    .where('chain_id', '=', chainId)
    .where('status', 'in', ['mined', 'reverted'])
    .executeTakeFirst();
  return { sweeps: Number(row?.sweeps ?? 0), gasSpent: BigInt(row?.gas_spent ?? 0) };
}
