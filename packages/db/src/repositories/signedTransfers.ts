/**
 * Treasury transfers signed by the service (an onramp's tokens, a quote's refund) are recorded on their row
 * before they are broadcast, so a restart re-sends the same bytes instead of signing again.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

/** A signed transaction: its hash, the bytes broadcast, and its nonce. */
export interface SignedTransfer {
  hash: string;
  serialized: string;
  nonce: number;
}

/**
 * Records `tx` on the row `id` in place of `previousHash` (null for the first), so two attempts can never
 * both record one; a quote refund takes one only while pending. False when another attempt got there first.
 */
export async function recordSignedTransfer(
  db: Kysely<Database>,
  table: 'onramps' | 'quote_refunds',
  id: string,
  previousHash: string | null,
  tx: SignedTransfer,
): Promise<boolean> {
  const result = await db
    // Both tables keep the transfer in the same columns.
    .updateTable(table as 'quote_refunds')
    .set({ tx_hash: tx.hash, tx_serialized: tx.serialized, tx_nonce: tx.nonce, updated_at: new Date() })
    .where('id', '=', id)
    .where((eb) =>
      eb.and([
        previousHash === null ? eb('tx_hash', 'is', null) : eb('tx_hash', '=', previousHash),
        ...(table === 'quote_refunds' ? [eb('status', '=', 'pending')] : []),
      ]),
    )
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
