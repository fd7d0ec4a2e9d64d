/**
 * The chaos run's refunds: a partial refund of a resolved payment requested through the API (with an
 * `Idempotency-Key`, sent twice), to an address the run holds the key of, either given by the merchant or
 * claimed by the customer on the claim route; then paid from the merchant's receiving wallet exactly as its
 * `payment_request.transaction` says, as a merchant would from the pay link in the e-mail.
 */
import { randomBytes } from 'node:crypto';
import { defineDevChain } from '@checkout/chain';
import type { DevInbox } from '@checkout/mail';
import type pg from 'pg';
import { type Address, createPublicClient, createWalletClient, type Hex, http } from 'viem';
import { privateKeyToAccount, privateKeyToAddress } from 'viem/accounts';
import type { ChaosPayment } from './count.ts';

/** A refund the run requested, and how far it got. */
export interface ChaosRefund {
  /** The refunded payment's index in the run. */
  index: number;
  expectedPaymentId: string;
  resolvedPaymentId?: string;
  refundId?: string;
  /** Requested without an address and claimed by the customer. */
  claimed: boolean;
  /** In token units. */
  amount: string;
  refundAddress: Address;
  /** The transfer the run made to pay it. */
  txHash?: string;
  /** What stopped it on the way (the count calls it lost). */
  error?: string;
}

/** One API call as the run makes them. */
export type ChaosCall = (
  method: string,
  path: string,
  body?: unknown,
  auth?: 'wallet' | 'key' | 'none',
  headers?: Record<string, string>,
  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field
) => Promise<{ status: number; body: any; text: string; replayed: boolean }>;

/** The Message-ID of a refund e-mail (`workflows/src/refund/emails.ts`). */
export const refundMessageId = (refundId: string, status: string, to: 'customer' | 'merchant') =>
  `<${refundId}.${status}.${to}.refund@stable-checkout>`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts refunding: `refund` follows one payment's refund until its transfer is mined, or records why not. */
export async function createRefunder(deps: {
  call: ChaosCall;
  db: pg.Client;
  inbox: DevInbox;
  /** The key of the merchant's receiving wallet. */
  merchantKey: Hex;
  rpcUrl: string;
  chainId: number;
  /** No step waits past this instant (epoch ms). */
  deadline: number;
  progress: (message: string) => void;
}): Promise<{ refund(payment: ChaosPayment, index: number, claimed: boolean): Promise<ChaosRefund> }> {
  const chain = defineDevChain({ chainId: deps.chainId, rpcUrl: deps.rpcUrl });
  const publicClient = createPublicClient({ chain, transport: http(deps.rpcUrl), pollingInterval: 50 });
  const account = privateKeyToAccount(deps.merchantKey);
  const wallet = createWalletClient({ account, chain, transport: http(deps.rpcUrl) });
  // The receiving wallet sends one transaction at a time, so its nonces never collide.
  let queue: Promise<unknown> = Promise.resolve();

  const until = async <T>(what: string, look: () => Promise<T | undefined>): Promise<T> => {
    for (;;) {
      const found = await look();
      if (found !== undefined) return found;
      if (Date.now() > deps.deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(500);
    }
  };
  const mail = (messageId: string) =>
    deps.inbox.waitFor((m) => m.messageId === messageId, {
      timeoutMs: Math.max(deps.deadline - Date.now(), 1_000),
    });
  /** Calls until the answer is not a 503 (the API waiting out a worker outage). */
  const answer: ChaosCall = async (...args) => {
    for (let tries = 0; ; tries++) {
      const res = await deps.call(...args);
      if (res.status !== 503 || tries >= 20) return res;
      await sleep(1_000);
    }
  };

  const pay = (transaction: { chain_id: number; from: string; to: Address; data: Hex; value: string }) => {
    const send = async () => {
      if (transaction.chain_id !== deps.chainId) throw new Error(`refund on chain ${transaction.chain_id}`);
      if (transaction.from.toLowerCase() !== account.address.toLowerCase()) {
        throw new Error(`refund paid from ${transaction.from}, not the receiving wallet`);
      }
      const hash = await wallet.sendTransaction({
        to: transaction.to,
        data: transaction.data,
        value: BigInt(transaction.value),
        gas: 100_000n,
      });
      const receipt = await publicClient.waitForTransactionReceipt({ hash, timeout: 30_000 });
      if (receipt.status !== 'success') throw new Error(`refund transfer ${hash} reverted`);
      return hash.toLowerCase();
    };
    const result = queue.then(send, send);
    queue = result.catch(() => {});
    return result;
  };

  return {
    async refund(payment, index, claimed) {
      const refund: ChaosRefund = {
        index,
        expectedPaymentId: payment.expectedPaymentId,
        claimed,
        // Under the smallest price (1.00): always a part of what was paid.
        amount: `0.${String(10 + (index % 90)).padStart(2, '0')}`,
        refundAddress: privateKeyToAddress(`0x${randomBytes(32).toString('hex')}`),
      };
      try {
        const resolvedPaymentId = await until('the payment to resolve', async () => {
          const { rows } = await deps.db.query<{ id: string }>(
            'select id from resolved_payments where expected_payment_id = $1 order by created_at limit 1',
            [payment.expectedPaymentId],
          );
          return rows[0]?.id;
        });
        refund.resolvedPaymentId = resolvedPaymentId;
        const body = {
          reason: 'Part of the order came back',
          amount: refund.amount,
          ...(claimed ? {} : { refund_address: refund.refundAddress }),
        };
        // The same key twice: the second answer is the first one replayed, never a second refund.
        const key = { 'idempotency-key': `chaos-refund-${payment.expectedPaymentId}` };
        const path = `/api/v1/resolved_payments/${resolvedPaymentId}/refunds`;
        const requested = await answer('POST', path, body, 'wallet', key);
        if (requested.status !== 201) throw new Error(`refund request ${requested.status} ${requested.text}`);
        refund.refundId = requested.body.refund.id as string;
        const again = await answer('POST', path, body, 'wallet', key);
        if (again.status !== 201 || again.body?.refund?.id !== refund.refundId || !again.replayed) {
          throw new Error(`refund request replayed as ${again.status} ${again.text}`);
        }
        const id = refund.refundId;

        if (claimed) {
          // The customer follows the link in the claim e-mail.
          await mail(refundMessageId(id, 'awaiting_address', 'customer'));
          const token = new URL(requested.body.refund.claim_url as string).pathname.split('/').at(-1);
          const res = await answer(
            'POST',
            `/api/v1/refund_claims/${token}`,
            { refund_address: refund.refundAddress },
            'none',
          );
          if (res.status !== 200) throw new Error(`refund claim ${res.status} ${res.text}`);
        }

        // The merchant pays from the pay link in the ready-to-pay e-mail.
        await mail(refundMessageId(id, 'ready_to_pay', 'merchant'));
        const current = await answer('GET', `/api/v1/refunds/${id}`);
        if (current.status !== 200) throw new Error(`refund read ${current.status} ${current.text}`);
        const request = current.body.refund.payment_request;
        if (!request)
          throw new Error(`refund ${id} is ${current.body.refund.status} with no payment request`);
        refund.txHash = await pay(request.transaction);
        deps.progress(`refund ${index} paid${claimed ? ' (claimed)' : ''}`);
      } catch (error) {
        refund.error = (error as Error).message;
        deps.progress(`refund ${index} stopped: ${refund.error}`);
      }
      return refund;
    },
  };
}
