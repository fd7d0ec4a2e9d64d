/**
 * Activities of unmatched transfers: settling the transfers the chain's watcher recorded that no session
 * took (run after each watcher tick), and the merchant's e-mail of each one, claimed before it is sent.
 */
import { wireTokenOf } from '@checkout/core';
import {
  findProductById,
  findUnmatchedTransferById,
  listNearSessions,
  listSessionsAtAddress,
  listUnsettledTransfers,
  presentUnmatchedTransfer,
  type StoredToken,
} from '@checkout/db';
import { unmatchedTransferNotice } from '@checkout/mail';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { defaultMatchTolerancePercent } from '../checkout/matchingSteps.ts';
import { performOnce } from '../effects.ts';
import { withQueuedCalls } from '../handOver/fromActivity.ts';
import type { WorkerResources } from '../resources.ts';
import { classifyTransfer, type SessionAround } from './classify.ts';
import { recordUnmatchedTransfer } from './record.ts';

/** What the unmatched-transfer activities need. */
export interface UnmatchedActivityDeps extends Pick<WorkerResources, 'db' | 'secrets' | 'tokens' | 'mailer'> {
  checkout: {
    scanClaimDelayMs: number;
    scanIntervalMs?: number;
    matchTolerancePercent?: number;
    sessionTtlMinutes?: number;
    graceMinutes?: number;
  };
}

/** How far back transfers are settled: older ones were settled, or their sessions are long gone. */
const settleHorizonMs = 24 * 3_600_000;
/** How long an e-mail's claim is held: above the SMTP client's own timeouts. */
const mailLeaseMs = 3 * 60_000;

/** Builds the unmatched-transfer activities over their dependencies. */
export function createUnmatchedActivities(deps: UnmatchedActivityDeps) {
  const db = deps.db.kysely;
  const toleranceBps = BigInt(
    Math.round((deps.checkout.matchTolerancePercent ?? defaultMatchTolerancePercent) * 100),
  );
  const windows = {
    sessionTtlMinutes: deps.checkout.sessionTtlMinutes ?? 1440,
    graceMinutes: deps.checkout.graceMinutes ?? 60,
  };
  // A look that may take a transfer does so right after its claim delay; a little more is left to it.
  const margin = Math.max(5_000, 3 * (deps.checkout.scanIntervalMs ?? 1_000));
  const tokenOf = (chainId: number, address: string): StoredToken | undefined => {
    const t = deps.tokens.findPaymentToken(chainId, address);
    return t ? wireTokenOf(t) : undefined;
  };

  return {
    /**
     * Records as unmatched each transfer into a receiving address that no session took and no session can
     * take any more (past its sender's claim delay, or exactly an amount no open session holds); queues
     * its announcements and makes them. How many were recorded.
     */
    async settleTransfers(input: { chainId: number }): Promise<{ recorded: number }> {
      return withQueuedCalls(db, () => settle(input.chainId));
    },

    /** E-mails the merchant (the nearest product's address) of an unmatched transfer, once. */
    async sendUnmatchedTransferEmail(input: { unmatchedTransferId: string }): Promise<{ sent: number }> {
      const row = await findUnmatchedTransferById(db, input.unmatchedTransferId);
      if (!row)
        throw ApplicationFailure.nonRetryable('unmatched transfer not found', 'unmatched_transfer_not_found');
      const product = row.product_id ? await findProductById(db, row.product_id) : undefined;
      if (!product) return { sent: 0 };
      const mailer = deps.mailer;
      if (!mailer) {
        Context.current().log.warn(
          'No SMTP server is configured: the unmatched transfer is not e-mailed',
          input,
        );
        return { sent: 0 };
      }
      const near = (await listNearSessions(db, [row.id])).get(row.id) ?? [];
      const notice = unmatchedTransferNotice({
        transfer: presentUnmatchedTransfer(row, near),
        chainName: deps.tokens.chainById(row.chain_id)?.name ?? `chain ${row.chain_id}`,
        productName: product.name,
      });
      const { performed } = await performOnce(
        deps.db,
        `email:unmatched_transfer:${row.id}`,
        mailLeaseMs,
        async () => {
          await mailer.send({
            to: product.email,
            ...notice,
            messageId: `<${row.id}.unmatched@stable-checkout>`,
          });
          return { sentAt: new Date().toISOString() };
        },
      );
      return { sent: performed ? 1 : 0 };
    },
  };

  /** Settles what the watcher recorded on the chain; how many transfers were recorded as unmatched. */
  async function settle(chainId: number): Promise<{ recorded: number }> {
    const now = Date.now();
    let recorded = 0;
    for (const transfer of await listUnsettledTransfers(db, {
      chainId,
      since: new Date(now - settleHorizonMs),
    })) {
      const token = tokenOf(chainId, transfer.token_address);
      if (!token) continue;
      const rows = await listSessionsAtAddress(db, {
        chainId: chainId,
        receivingAddress: transfer.to_address,
        ...windows,
      });
      const around: SessionAround[] = rows.map((s) => ({
        id: s.id,
        payer: s.sender_address?.toLowerCase() ?? null,
        status: s.status,
        reserved: s.amount_tail !== null,
        tokenAddress: s.expected_token.address,
        resolvedPaymentId: s.resolved_payment_id,
        amount: BigInt(s.expected_token_amount),
        decimals: s.expected_token.decimal_count,
      }));
      const classification = classifyTransfer(
        {
          from: transfer.from_address,
          txFrom: transfer.tx_from,
          tokenAddress: transfer.token_address,
          amount: BigInt(transfer.amount),
          decimals: token.decimal_count,
        },
        around,
        toleranceBps,
      );
      const seen = transfer.seen_at.getTime();
      // A session that takes it by the rules takes it, however long its look takes (a worker may be away).
      if (classification.wait === 'session') continue;
      if (classification.wait === 'claim_delay' && now < seen + deps.checkout.scanClaimDelayMs + margin)
        continue;
      if (classification.wait === 'reserved' && now < seen + margin) continue;
      const near = classification.near.flatMap((s) => rows.filter((r) => r.id === s.id));
      const id = await recordUnmatchedTransfer(db, deps.secrets, {
        transfer,
        token,
        merchantId: transfer.merchant_id,
        classification,
        near,
      });
      if (id) recorded += 1;
    }
    return { recorded };
  }
}

/** The unmatched-transfer activities' type, for `proxyActivities`. */
export type UnmatchedActivities = ReturnType<typeof createUnmatchedActivities>;
