/**
 * The chain watchers' state: each chain's position, the addresses covered (checkouts' receiving addresses
 * and quotes' deposit addresses), the sessions and quotes a recorded transfer may concern, and the record
 * of a tick's progress (the transfers themselves: ./chainTransfers.ts). Addresses and hashes are stored
 * lowercase.
 */
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { ChainWatchRow } from '../checkoutSchema.ts';
import type { QuoteRow } from '../rampsSchema.ts';
import type { Database } from '../schema.ts';
import { listRefundTransfers } from './refunds.ts';

/** A transfer as the watcher read it from the chain. */
export interface ReadTransfer {
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
  token: string;
  from: string;
  txFrom: string;
  /** The transaction's input, lowercase hex without `0x`. */
  txInput: string;
  to: string;
  amount: bigint;
}

/** Where the watcher of a chain got to, or undefined before its first tick. */
export async function findChainWatch(
  db: Kysely<Database>,
  chainId: number,
): Promise<ChainWatchRow | undefined> {
  return db.selectFrom('chain_watch').selectAll().where('chain_id', '=', chainId).executeTakeFirst();
}

/**
 * The addresses the chain's watcher reads, each with the earliest block it is needed from: the receiving
 * addresses (and deposit addresses) of sessions still waiting for a payment (awaiting it, or expired within
 * their scan window), the deposit addresses of sessions opened in the last 30 days, and the deposit
 * addresses of quotes still watched (see {@link quoteWatched}) whose first block is known.
 */
export async function listWaitingAddresses(
  db: Kysely<Database>,
  input: SessionWindow & { chainId: number },
): Promise<Map<string, bigint>> {
  const sessions = db
    .selectFrom('checkout_sessions')
    .select((eb) => [
      eb.fn<string>('lower', ['receiving_address']).as('address'),
      sql<string>`start_block::numeric`.as('since'),
    ])
    .where('chain_id', '=', input.chainId);
  // A session's deposit address is read like a receiving address, as long as it is.
  const deposits = db
    .selectFrom('checkout_sessions')
    .select((eb) => [
      eb.ref('deposit_address').$notNull().as('address'),
      sql<string>`start_block::numeric`.as('since'),
    ])
    .where('chain_id', '=', input.chainId)
    .where('deposit_address', 'is not', null);
  const rows = await db
    .selectFrom(
      sessions
        .where((eb) => sessionWaiting(eb, input))
        // An address stays read for the grace after its sessions ended (paid, failed or closed): a second
        // payment, or one to an attempt given up, lands there and is recorded as an unmatched transfer.
        .unionAll(sessions.where((eb) => sessionEndedWithin(eb, input.graceMinutes)))
        .unionAll(deposits.where((eb) => sessionWaiting(eb, input)))
        .unionAll(deposits.where((eb) => sessionEndedWithin(eb, input.graceMinutes)))
        // A deposit address is read for days after its session opened, whatever became of the session: an
        // exchange's late withdrawal, or another token, is recorded there and swept to the merchant.
        .unionAll(deposits.where('created_at', '>', minutesAgo(depositWatchMinutes)))
        .unionAll(
          db
            .selectFrom('quotes')
            .select((eb) => [
              eb.fn<string>('lower', ['deposit_address']).as('address'),
              eb.ref('deposit_scan_block').$notNull().as('since'),
            ])
            .where('chain_id', '=', input.chainId)
            .where('deposit_scan_block', 'is not', null)
            .where((eb) => quoteWatched(eb, input.graceMinutes)),
        )
        .as('waiting'),
    )
    .select((eb) => ['address', eb.fn.min('since').as('since')])
    .groupBy('address')
    .execute();
  return new Map(rows.map((r) => [r.address, BigInt(r.since)]));
}

/** How long after its session opened a deposit address is read: 30 days. */
const depositWatchMinutes = 30 * 24 * 60;

/** `minutes` before the database's clock. */
const minutesAgo = (minutes: number) => sql<Date>`now() - interval '1 minute' * ${minutes}`;

type SessionsFilter = ExpressionBuilder<Database, 'checkout_sessions'>;

/** How long a session is looked for: its life when it has no expiry, and the grace after it. */
export interface SessionWindow {
  sessionTtlMinutes: number;
  graceMinutes: number;
}

/** Whether a session's scan window (its expiry, or its opening plus the session life, then the grace) is not over. */
export function sessionWindowOpen(eb: SessionsFilter, window: SessionWindow) {
  return eb.or([
    eb('expires_at', '>', minutesAgo(window.graceMinutes)),
    eb.and([
      eb('expires_at', 'is', null),
      eb('created_at', '>', minutesAgo(window.sessionTtlMinutes + window.graceMinutes)),
    ]),
  ]);
}

/** Whether a session ended (paid, failed or closed) within the last `graceMinutes`. */
export function sessionEndedWithin(eb: SessionsFilter, graceMinutes: number) {
  const ended = eb('status', 'in', ['resolved', 'failed', 'closed']);
  return eb.and([ended, eb('updated_at', '>', minutesAgo(graceMinutes))]);
}

/**
 * Whether a session still waits for a payment: unresolved, and within its scan window. Written so that the
 * waiting-session indexes (migration 0016) answer it: abandoned sessions are never read.
 */
function sessionWaiting(eb: SessionsFilter, window: SessionWindow) {
  return eb.and([
    eb('status', 'in', ['awaiting_payment', 'expired']),
    eb('resolved_payment_id', 'is', null),
    sessionWindowOpen(eb, window),
  ]);
}

/**
 * Whether a quote's deposit address is watched: while the quote is open or paying out, and for the grace
 * after its expiry or its last change. A transfer after that is returned once reported through execute.
 */
function quoteWatched(eb: ExpressionBuilder<Database, 'quotes'>, graceMinutes: number) {
  return eb.or([
    eb('status', 'in', ['open', 'executed']),
    sql<boolean>`greatest(expires_at, updated_at) > ${minutesAgo(graceMinutes)}`,
  ]);
}

/** Watched quotes of the chain whose first block to watch from is not known yet (created before its watcher first ran). */
export async function listQuotesWithoutWatchStart(
  db: Kysely<Database>,
  input: { chainId: number; graceMinutes: number },
): Promise<Array<Pick<QuoteRow, 'id' | 'created_at'>>> {
  return db
    .selectFrom('quotes')
    .select(['id', 'created_at'])
    .where('chain_id', '=', input.chainId)
    .where('deposit_scan_block', 'is', null)
    .where((eb) => quoteWatched(eb, input.graceMinutes))
    .execute();
}

/** The quotes whose deposit address is `to` on the chain (one, as deposit addresses are never reused). */
export async function listQuotesPaidInto(
  db: Kysely<Database>,
  input: { chainId: number; to: string },
): Promise<QuoteRow[]> {
  return db
    .selectFrom('quotes')
    .selectAll()
    .where('chain_id', '=', input.chainId)
    .where((eb) => eb(eb.fn('lower', ['deposit_address']), '=', input.to.toLowerCase()))
    .execute();
}

/** The addresses the watcher covers, with the block each is covered from. */
export async function listWatchedAddresses(
  db: Kysely<Database>,
  chainId: number,
): Promise<Map<string, bigint>> {
  const rows = await db
    .selectFrom('chain_watch_addresses')
    .select(['address', 'covered_from'])
    .where('chain_id', '=', chainId)
    .execute();
  return new Map(rows.map((r) => [r.address, BigInt(r.covered_from)]));
}

/**
 * Records transfers read from the chain (each once: a transfer read again, after a restart or a rewind, is
 * not recorded twice; one a refund records as its payment, to a refund address that is also a receiving
 * address, is a transfer out and pays no checkout: not recorded; nor is a sweep out of a session's deposit
 * address, which only moves a payment recorded there), the addresses now covered and those no longer watched, and the watcher's new
 * position, in one transaction: a watcher stopped at any point resumes where the last commit left it.
 * Returns the transfers recorded for the first time.
 */
export async function recordChainProgress(
  db: Kysely<Database>,
  input: {
    chainId: number;
    transfers: readonly ReadTransfer[];
    covered: ReadonlyMap<string, bigint>;
    dropped: readonly string[];
    /** `headSeenAt`: when an endpoint gave `headBlock` (by default, now). */
    position: { nextBlock: bigint; lastBlockHash: string | null; headBlock: bigint; headSeenAt?: Date };
    /** The newest block whose logs this tick read (past the position: the unconfirmed tail); by default the block before the position. */
    readToBlock?: bigint;
  },
): Promise<ReadTransfer[]> {
  return db.transaction().execute(async (trx) => {
    const now = new Date();
    const fresh: ReadTransfer[] = [];
    const paysRefund = await listRefundTransfers(
      trx,
      input.chainId,
      input.transfers.map((t) => t.txHash),
    );
    const sweeps = await listDepositAddressesAmong(
      trx,
      input.chainId,
      input.transfers.map((t) => t.from),
    );
    for (const t of input.transfers) {
      if (paysRefund.has(`${t.txHash.toLowerCase()}:${t.logIndex}`)) continue;
      // A forwarder's sweep moves a payment already recorded at its deposit address on to the merchant.
      if (sweeps.has(t.from.toLowerCase())) continue;
      const inserted = await trx
        .insertInto('chain_transfers')
        .values({
          chain_id: input.chainId,
          tx_hash: t.txHash.toLowerCase(),
          log_index: t.logIndex,
          block_number: t.blockNumber.toString(),
          block_hash: t.blockHash.toLowerCase(),
          token_address: t.token.toLowerCase(),
          from_address: t.from.toLowerCase(),
          tx_from: t.txFrom.toLowerCase(),
          tx_input: t.txInput,
          to_address: t.to.toLowerCase(),
          amount: t.amount.toString(),
          seen_at: now,
        })
        .onConflict((oc) => oc.columns(['chain_id', 'tx_hash', 'log_index']).doNothing())
        .executeTakeFirst();
      if ((inserted.numInsertedOrUpdatedRows ?? 0n) > 0n) fresh.push(t);
    }
    for (const [address, from] of input.covered) {
      await trx
        .insertInto('chain_watch_addresses')
        .values({ chain_id: input.chainId, address, covered_from: from.toString() })
        .onConflict((oc) =>
          oc.columns(['chain_id', 'address']).doUpdateSet({ covered_from: from.toString() }),
        )
        .execute();
    }
    if (input.dropped.length > 0) {
      await trx
        .deleteFrom('chain_watch_addresses')
        .where('chain_id', '=', input.chainId)
        .where('address', 'in', [...input.dropped])
        .execute();
    }
    const position = {
      next_block: input.position.nextBlock.toString(),
      last_block_hash: input.position.lastBlockHash,
      head_block: input.position.headBlock.toString(),
      updated_at: now,
    };
    await trx
      .insertInto('chain_watch')
      .values({ chain_id: input.chainId, ...position })
      .onConflict((oc) => oc.column('chain_id').doUpdateSet(position))
      .execute();
    // A tick that recorded is a healthy one: any failure before it is over.
    const status = {
      head_block: input.position.headBlock.toString(),
      head_at: input.position.headSeenAt ?? now,
      read_to_block: (input.readToBlock ?? input.position.nextBlock - 1n).toString(),
      failing_since: null,
      error_kind: null,
      error_message: null,
      error_at: null,
    };
    await trx
      .insertInto('chain_watch_status')
      .values({ chain_id: input.chainId, ...status })
      .onConflict((oc) => oc.column('chain_id').doUpdateSet(status))
      .execute();
    return fresh;
  });
}

/** Which of `addresses` are deposit addresses of the chain's sessions (lowercase). */
async function listDepositAddressesAmong(
  db: Kysely<Database>,
  chainId: number,
  addresses: readonly string[],
): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  const rows = await db
    .selectFrom('checkout_sessions')
    .select('deposit_address')
    .where('chain_id', '=', chainId)
    .where('deposit_address', 'in', [...new Set(addresses.map((a) => a.toLowerCase()))])
    .execute();
  return new Set(rows.flatMap((r) => (r.deposit_address ? [r.deposit_address] : [])));
}

/**
 * The expected payments whose sessions a transfer may pay: sessions of the chain still waiting (see
 * {@link sessionWaiting}) whose deposit address it went to, or paid into its receiving address whose
 * reference is one of `references` (the 32-byte windows of its transaction's input), or holding exactly
 * its amount of its token. Only those are
 * told, so a transfer wakes the session it names, not every one open. The candidates of the attribution
 * rules, whose one home is `ownerOf` (workflows/src/checkout/matching.ts): each session told decides there.
 */
export async function listSessionsAwaiting(
  db: Kysely<Database>,
  input: {
    chainId: number;
    to: string;
    references: readonly string[];
    /** The transfer's token and amount (base units). */
    token: string;
    amount: string;
    blockNumber: bigint;
  } & SessionWindow,
): Promise<string[]> {
  const rows = await db
    .selectFrom('checkout_sessions')
    .select('expected_payment_id')
    .where('chain_id', '=', input.chainId)
    .where((eb) => sessionWaiting(eb, input))
    .where(sql<boolean>`start_block::numeric <= ${input.blockNumber.toString()}::numeric`)
    .where((eb) =>
      eb.or([
        eb('deposit_address', '=', input.to.toLowerCase()),
        eb.and([
          eb(eb.fn('lower', ['receiving_address']), '=', input.to.toLowerCase()),
          eb.or([
            eb(
              'reference',
              '=',
              sql<string>`any(${sql.val(input.references.length > 0 ? [...input.references] : [''])}::text[])`,
            ),
            eb.exists(
              eb
                .selectFrom('checkout_payment_amounts as held')
                .select('held.session_id')
                .whereRef('held.session_id', '=', 'checkout_sessions.id')
                .where('held.chain_id', '=', input.chainId)
                .where('held.receiving_address', '=', input.to.toLowerCase())
                .where('held.token_address', '=', input.token.toLowerCase())
                .where(sql<boolean>`held.amount = ${input.amount}::numeric`),
            ),
          ]),
        ]),
      ]),
    )
    .execute();
  return rows.map((r) => r.expected_payment_id);
}

/**
 * Whether a session paid from another device (no payer's element to send a hash) waits on the chain: the
 * watcher then follows the chain block by block.
 */
export async function hasPayerlessSessionWaiting(
  db: Kysely<Database>,
  input: SessionWindow & { chainId: number },
): Promise<boolean> {
  const row = await db
    .selectFrom('checkout_sessions')
    .select('id')
    .where('chain_id', '=', input.chainId)
    .where((eb) => sessionWaiting(eb, input))
    .where('sender_address', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
