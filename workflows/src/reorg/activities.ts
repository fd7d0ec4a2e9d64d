/**
 * Activities of payments a reorganisation touched: re-checking, after each watcher tick, the resolved
 * payments in the blocks the watcher no longer vouches for (read back to `REORG_DEPTH_BLOCKS` behind its
 * position), and the merchant's e-mail of each outcome, claimed before it is sent.
 */
import {
  findChainWatch,
  findProductById,
  findReadToBlock,
  findResolvedPayment,
  listPaymentsToRecheck,
  listUnmatchedToRecheck,
  presentResolvedPayment,
} from '@checkout/db';
import { paymentReorgNotice } from '@checkout/mail';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { withQueuedCalls } from '../handOver/fromActivity.ts';
import { sendMailOnce } from '../mailOnce.ts';
import type { WorkerResources } from '../resources.ts';
import { chainVerdict, type RecordedPlace, recordVerdict } from './recheck.ts';
import { recordUnmatchedVerdict } from './recheckUnmatched.ts';
import type { PaymentReorgInput } from './shared.ts';

/** What the reorganisation activities need. */
export interface ReorgActivityDeps extends WorkerResources {
  checkout: { reorgDepthBlocks?: number };
}

/** How deep behind the watcher's position payments are re-checked by default. */
const defaultReorgDepthBlocks = 256;

/** Builds the reorganisation activities over their dependencies. */
export function createReorgActivities(deps: ReorgActivityDeps) {
  const db = deps.db.kysely;
  const depth = BigInt(deps.checkout.reorgDepthBlocks ?? defaultReorgDepthBlocks);

  return {
    /**
     * Re-checks the chain's recent payments and unmatched transfers the watcher no longer vouches for; how
     * many changed.
     */
    async recheckPayments(input: { chainId: number }): Promise<{ changed: number }> {
      const chain = deps.chains.get(input.chainId);
      const watch = await findChainWatch(db, input.chainId);
      if (!chain || !watch) return { changed: 0 };
      const next = BigInt(watch.next_block);
      // Every block the watcher read, also the newest ones it reads again until they are confirmed.
      const readTo = await findReadToBlock(db, input.chainId);
      const range = {
        chainId: input.chainId,
        fromBlock: next > depth ? next - depth : 0n,
        toBlock: readTo !== undefined && readTo >= next ? readTo + 1n : next,
      };
      const payments = await listPaymentsToRecheck(db, range);
      const unmatched = await listUnmatchedToRecheck(db, range);
      return withQueuedCalls(db, async () => {
        let changed = 0;
        for (const row of payments) {
          const place = { txHash: row.tx_id, blockNumber: row.block_number, blockHash: row.block_hash };
          const verdict = await chainVerdict(chain, place as RecordedPlace);
          if (verdict && (await recordVerdict(db, deps.secrets, row, verdict))) changed += 1;
        }
        for (const row of unmatched) {
          const place = { txHash: row.tx_hash, blockNumber: row.block_number, blockHash: row.block_hash };
          const verdict = await chainVerdict(chain, place as RecordedPlace);
          if (verdict && (await recordUnmatchedVerdict(db, deps, row, verdict))) changed += 1;
        }
        return { changed };
      });
    },

    /** E-mails the merchant (the product's address) what a reorganisation did to a payment, once. */
    async sendReorgEmail(input: PaymentReorgInput): Promise<{ sent: number }> {
      const row = await findResolvedPayment(db, input.resolvedPaymentId);
      if (!row)
        throw ApplicationFailure.nonRetryable('resolved payment not found', 'resolved_payment_not_found');
      const product = await findProductById(db, row.product_id);
      if (!product) throw ApplicationFailure.nonRetryable('product not found', 'product_not_found');
      const mailer = deps.mailer;
      if (!mailer) {
        Context.current().log.warn('No SMTP server is configured: the reorganisation is not e-mailed', {
          ...input,
        });
        return { sent: 0 };
      }
      const notice = paymentReorgNotice({
        payment: presentResolvedPayment(row, product, deps.secrets),
        productName: product.name,
        chainName: deps.tokens.chainById(row.chain_id)?.name ?? `chain ${row.chain_id}`,
        outcome: input.outcome,
        blockNumber: input.blockNumber,
      });
      const sent = await sendMailOnce(deps, mailer, {
        effectKey: `email:reorg:${row.id}:${input.blockHash}`,
        merchantId: product.merchant_id,
        addressId: product.address_id,
        kind: `reorg_${input.outcome}`,
        recipient: 'merchant',
        resolvedPaymentId: row.id,
        message: {
          to: product.email,
          ...notice,
          messageId: `<${row.id}.${input.blockHash.slice(2, 18)}.reorg@stable-checkout>`,
        },
      });
      return { sent };
    },
  };
}

/** The reorganisation activities' type, for `proxyActivities`. */
export type ReorgActivities = ReturnType<typeof createReorgActivities>;
