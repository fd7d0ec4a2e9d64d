/**
 * The merchant's e-mails about unmatched transfers, in batches: each transfer announced by e-mail joins the
 * next batch to its recipient (the e-mail of its product), and a recipient of a merchant gets at most one batch
 * per interval. A batch is reserved (its transfers marked with its claim key) before it is sent, so a retried
 * send makes the same e-mail under the same claim.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { UnmatchedTransferRow } from '../unmatchedSchema.ts';

/**
 * Reserves the next batch of e-mail to `recipient` for the transfer `transferId` and every other transfer of the
 * merchant waiting for an e-mail to that recipient: their claim key, or how long to wait while the last batch
 * to the recipient is more recent than `intervalMs`.
 */
export async function reserveUnmatchedMailBatch(
  db: Kysely<Database>,
  input: { merchantId: string; recipient: string; transferId: string; intervalMs: number; now?: Date },
): Promise<{ batch: string } | { waitMs: number }> {
  const now = input.now ?? new Date();
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('unmatched_mail_groups')
      .values({ merchant_id: input.merchantId, recipient: input.recipient, last_batch_at: new Date(0) })
      .onConflict((c) => c.doNothing())
      .execute();
    const group = await trx
      .selectFrom('unmatched_mail_groups')
      .select('last_batch_at')
      .where('merchant_id', '=', input.merchantId)
      .where('recipient', '=', input.recipient)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const waitMs = group.last_batch_at.getTime() + input.intervalMs - now.getTime();
    if (waitMs > 0) return { waitMs };
    const recipientKey = createHash('sha256').update(input.recipient).digest('hex').slice(0, 16);
    const batch = `email:unmatched_transfers:${input.merchantId}:${recipientKey}:${now.toISOString()}`;
    await trx
      .updateTable('unmatched_mail_groups')
      .set({ last_batch_at: now })
      .where('merchant_id', '=', input.merchantId)
      .where('recipient', '=', input.recipient)
      .execute();
    await trx
      .updateTable('unmatched_transfers')
      .set({ mail_batch: batch })
      .where('merchant_id', '=', input.merchantId)
      .where('mail_batch', 'is', null)
      .where((eb) =>
        eb.or([
          eb('id', '=', input.transferId),
          eb.and([
            eb('mail_wanted', '=', true),
            eb(
              'product_id',
              'in',
              eb
                .selectFrom('products')
                .select('id')
                .where('merchant_id', '=', input.merchantId)
                .where('email', '=', input.recipient),
            ),
          ]),
        ]),
      )
      .execute();
    return { batch };
  });
}

/** The transfers of a batch, oldest first. */
export async function listUnmatchedMailBatch(
  db: Kysely<Database>,
  batch: string,
): Promise<UnmatchedTransferRow[]> {
  return db
    .selectFrom('unmatched_transfers')
    .selectAll()
    .where('mail_batch', '=', batch)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
