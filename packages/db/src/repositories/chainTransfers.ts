/**
 * The token transfers the chain watchers recorded (`chain_transfers`): the hand-over's queue, the reads of a
 * session's look and of refunds, and what a reorganisation forgets. Addresses and hashes are lowercase.
 */
import { type Kysely, sql } from 'kysely';
import type { ChainTransferRow } from '../checkoutSchema.ts';
import type { Database } from '../schema.ts';

/** Transfers whose sessions have not been told yet (oldest first). */
export async function listTransfersToHandOver(
  db: Kysely<Database>,
  chainId: number,
  limit = 500,
): Promise<ChainTransferRow[]> {
  return db
    .selectFrom('chain_transfers')
    .selectAll()
    .where('chain_id', '=', chainId)
    .where('handed_over', '=', false)
    .orderBy('block_number')
    .orderBy('log_index')
    .limit(limit)
    .execute();
}

/** Notes that the sessions a transfer may pay were told of it. */
export async function markTransferHandedOver(
  db: Kysely<Database>,
  key: { chainId: number; txHash: string; logIndex: number },
): Promise<void> {
  await db
    .updateTable('chain_transfers')
    .set({ handed_over: true })
    .where('chain_id', '=', key.chainId)
    .where('tx_hash', '=', key.txHash.toLowerCase())
    .where('log_index', '=', key.logIndex)
    .execute();
}

/** The recorded transfers of `tokens` into `to` from `sinceBlock` on, in chain order (a query to narrow). */
function transfersInto(
  db: Kysely<Database>,
  input: { chainId: number; to: string; tokens: readonly string[]; sinceBlock: bigint },
) {
  return db
    .selectFrom('chain_transfers')
    .selectAll()
    .where('chain_id', '=', input.chainId)
    .where('to_address', '=', input.to.toLowerCase())
    .where(
      'token_address',
      'in',
      input.tokens.map((t) => t.toLowerCase()),
    )
    .where(sql<boolean>`block_number >= ${input.sinceBlock.toString()}::numeric`)
    .orderBy(sql`block_number`)
    .orderBy('log_index');
}

/** The recorded transfers of `tokens` into `to` from `sinceBlock` on, in chain order. */
export async function listTransfersInto(
  db: Kysely<Database>,
  input: { chainId: number; to: string; tokens: readonly string[]; sinceBlock: bigint },
): Promise<ChainTransferRow[]> {
  return transfersInto(db, input).execute();
}

/**
 * The recorded transfers of `tokens` into `to` from `sinceBlock` on that may pay a session, in chain
 * order: those whose transaction's input carries `reference`, and those of exactly `exact` (its token and
 * amount), when given.
 */
export async function listTransfersFor(
  db: Kysely<Database>,
  input: {
    chainId: number;
    to: string;
    tokens: readonly string[];
    sinceBlock: bigint;
    reference: string;
    exact: { token: string; amount: string } | null;
  },
): Promise<ChainTransferRow[]> {
  return transfersInto(db, input)
    .where((eb) =>
      eb.or([
        sql<boolean>`strpos(tx_input, ${input.reference.toLowerCase()}) > 0`,
        ...(input.exact
          ? [
              eb.and([
                eb('token_address', '=', input.exact.token.toLowerCase()),
                sql<boolean>`amount = ${input.exact.amount}::numeric`,
              ]),
            ]
          : []),
      ]),
    )
    .execute();
}

/** The recorded transfers of the transactions `txHashes` into `to`, in chain order. */
export async function listTransfersOfTransactions(
  db: Kysely<Database>,
  input: { chainId: number; to: string; txHashes: readonly string[] },
): Promise<ChainTransferRow[]> {
  if (input.txHashes.length === 0) return [];
  return db
    .selectFrom('chain_transfers')
    .selectAll()
    .where('chain_id', '=', input.chainId)
    .where('to_address', '=', input.to.toLowerCase())
    .where(
      'tx_hash',
      'in',
      input.txHashes.map((h) => h.toLowerCase()),
    )
    .orderBy(sql`block_number`)
    .orderBy('log_index')
    .execute();
}

/**
 * The transfers recorded from `fromBlock` on (the unconfirmed tail the watcher reads again): to skip
 * asking for their transactions again, and to notice one whose block the chain no longer has.
 */
export async function listTransfersRecordedFrom(
  db: Kysely<Database>,
  input: { chainId: number; fromBlock: bigint },
): Promise<
  Array<
    Pick<ChainTransferRow, 'tx_hash' | 'log_index' | 'block_number' | 'block_hash' | 'tx_from' | 'tx_input'>
  >
> {
  return db
    .selectFrom('chain_transfers')
    .select(['tx_hash', 'log_index', 'block_number', 'block_hash', 'tx_from', 'tx_input'])
    .where('chain_id', '=', input.chainId)
    .where(sql<boolean>`block_number >= ${input.fromBlock.toString()}::numeric`)
    .execute();
}

/** Forgets the transfers recorded in a block the chain replaced (its number now has another hash). */
export async function forgetTransfersOfBlock(
  db: Kysely<Database>,
  input: { chainId: number; blockNumber: bigint; blockHash: string },
): Promise<void> {
  await db
    .deleteFrom('chain_transfers')
    .where('chain_id', '=', input.chainId)
    .where(sql<boolean>`block_number = ${input.blockNumber.toString()}::numeric`)
    .where('block_hash', '=', input.blockHash.toLowerCase())
    .execute();
}

/** Forgets the transfers read from `fromBlock` on: a reorganisation may have replaced those blocks. */
export async function forgetTransfersFrom(
  db: Kysely<Database>,
  input: { chainId: number; fromBlock: bigint },
): Promise<void> {
  await db
    .deleteFrom('chain_transfers')
    .where('chain_id', '=', input.chainId)
    .where(sql<boolean>`block_number >= ${input.fromBlock.toString()}::numeric`)
    .execute();
}
