/**
 * A checkout session's outcome made to happen on its test network, with real transactions from the
 * sandbox's wallet paying as a shopper's wallet does: the session's own `transaction` (its token's
 * `transfer` to the receiving address, with the session's reference appended), for the exact price or
 * another amount, its hash handed in as the shopper's element hands it in. What follows (the checkout's
 * workflow, the resolved payment, its webhooks and e-mails) is the service's own. See docs/sandbox.md.
 */
import {
  ApiError,
  type CheckoutSession,
  parseUnits,
  referencedTransferData,
  type SandboxSessionSimulateBody,
  type SandboxTransaction,
} from '@checkout/core';
import { type CheckoutSessionRow, findSession, listTransfersOfTransactions } from '@checkout/db';
import { type Address, encodeFunctionData, erc20Abi, getAddress } from 'viem';
import { getBlockNumber } from 'viem/actions';
import { paymentAddressOf } from '../checkout/matching.ts';
import { viewSession } from '../checkout/sessionView.ts';
import { submitCheckoutTransaction } from '../checkout/submit.ts';
import {
  blockHashesAfter,
  isDevChain,
  mineBlocks,
  requireDevChain,
  revertTo,
  stampNextBlockAfter,
  takeSnapshot,
} from './devChain.ts';
import { expireSessionNow } from './expireSession.ts';
import { sandboxPayer, sendFromPayer } from './payer.ts';
import { chainOf, refuseLiveNetwork, type SandboxDeps, sentTransaction, settled } from './shared.ts';

/** What a session's simulation did, and the session now. */
export interface SessionSimulation {
  transactions: SandboxTransaction[];
  removedBlocks: string[];
  session: CheckoutSession;
}

/** Whole tokens of a transfer that fits no order: an odd amount no checkout's price is, above the least announced (`UNMATCHED_NOTIFY_MIN_AMOUNT`, 1 by default). */
const strayAmount = '1.010101';

/** Makes `body.outcome` happen for the session; what it did and the session as it then stands. */
export async function simulateSessionOutcome(
  deps: SandboxDeps,
  session: CheckoutSessionRow,
  body: SandboxSessionSimulateBody,
): Promise<SessionSimulation> {
  refuseLiveNetwork('checkout session', session.expected_token);
  const chain = chainOf(deps, session.chain_id);
  const outcome = body.outcome;
  if (outcome === 'reversed') await requireDevChain(chain, 'a reorganisation');
  if (outcome !== 'unmatched' && outcome !== 'paid_late') awaitingPayment(session, outcome);
  const token = getAddress(session.expected_token.address);
  const price = BigInt(session.expected_token_amount);
  const payer = await sandboxPayer(deps, chain);
  const transactions: SandboxTransaction[] = [];
  let removedBlocks: string[] = [];

  /**
   * Sends the session's transaction for `amount` (the price by default), its reference appended: into its own
   * deposit address when it has one (a session without a payer), as its `transaction` says.
   */
  const pay = async (amount = price, gas?: bigint) => {
    const data = referencedTransferData({
      to: paymentAddressOf(session),
      amount,
      reference: session.reference,
    });
    const receipt = await sendFromPayer(chain, payer, { to: token, data, ...(gas ? { gas } : {}) });
    const sent = sentTransaction(receipt);
    transactions.push(sent);
    return sent;
  };
  /** Hands the hash in as the shopper's element does. */
  const handIn = async (sent: SandboxTransaction) => {
    const current = (await findSession(deps.db, session.id)) ?? session;
    await submitCheckoutTransaction(
      { db: deps.db, temporal: deps.temporal, taskQueue: deps.taskQueue, chains: deps.chains },
      current,
      sent.tx_hash,
    );
  };
  /** On a dev chain, mines the blocks its confirmations need; then waits for the session's resolution. */
  const resolution = async () => {
    if (session.required_confirmations > 1 && (await isDevChain(chain))) {
      await mineBlocks(chain.client, session.required_confirmations - 1);
    }
    return settled(
      () => findSession(deps.db, session.id),
      (row) => row?.status === 'resolved' || row?.status === 'failed',
      "The checkout's resolution",
    );
  };

  switch (outcome) {
    case 'paid':
      await handIn(await pay());
      break;
    case 'underpaid':
    case 'overpaid': {
      const off = offBy(body, price, session.expected_token.decimal_count);
      if (outcome === 'underpaid' && off >= price) {
        throw new ApiError('record_invalid', 'amount must be less than the price', {
          errors: [{ path: 'amount', message: 'must be less than the price' }],
        });
      }
      await handIn(await pay(outcome === 'underpaid' ? price - off : price + off));
      break;
    }
    case 'failed':
      // More than any wallet holds, with a fixed gas limit: mined, and reverted by the token.
      await handIn(await pay(2n ** 255n, 100_000n));
      break;
    case 'expired':
      await expireSessionNow(deps, session);
      break;
    case 'paid_late': {
      if (session.status !== 'awaiting_payment' && session.status !== 'expired')
        awaitingPayment(session, outcome);
      const expiredAt =
        session.status === 'expired'
          ? (session.expires_at?.getTime() ?? Date.now())
          : await expireSessionNow(deps, session);
      // Mined after the moment it expired: the checkout's look finds it (an expired checkout takes no hash).
      if (await isDevChain(chain)) await stampNextBlockAfter(chain.client, expiredAt);
      else await new Promise((resolve) => setTimeout(resolve, Math.max(expiredAt + 1000 - Date.now(), 0)));
      await pay();
      break;
    }
    case 'paid_twice': {
      const first = await pay();
      await handIn(first);
      await resolution();
      // The same payment again: the checkout is paid, so the second arrives as an unmatched transfer.
      await pay();
      break;
    }
    case 'unmatched': {
      const amount = parseUnits(strayAmount, session.expected_token.decimal_count);
      const data = encodeFunctionData({
        abi: erc20Abi,
        functionName: 'transfer',
        args: [session.receiving_address as Address, amount],
      });
      transactions.push(sentTransaction(await sendFromPayer(chain, payer, { to: token, data })));
      break;
    }
    case 'reversed':
      removedBlocks = await reverse(deps, session, pay, handIn, resolution);
      break;
  }
  const row = (await findSession(deps.db, session.id)) ?? session;
  return { transactions, removedBlocks, session: await viewSession(deps.db, row) };
}

/**
 * Pays the session on a dev chain, waits for its resolution and for the chain's watcher to record the
 * transfer, then takes its block (and every one after) off the chain and mines a longer chain in their
 * place; the hashes of the blocks taken away.
 */
async function reverse(
  deps: SandboxDeps,
  session: CheckoutSessionRow,
  pay: () => Promise<SandboxTransaction>,
  handIn: (sent: SandboxTransaction) => Promise<void>,
  resolution: () => Promise<unknown>,
): Promise<string[]> {
  const client = chainOf(deps, session.chain_id).client;
  const snapshot = await takeSnapshot(client);
  const base = await getBlockNumber(client, { cacheTime: 0 });
  const sent = await pay();
  await handIn(sent);
  await resolution();
  await settled(
    () =>
      listTransfersOfTransactions(deps.db, {
        chainId: session.chain_id,
        to: paymentAddressOf(session),
        txHashes: [sent.tx_hash],
      }),
    (rows) => rows.length > 0,
    "The chain watcher's record of the payment",
  );
  const removed = await blockHashesAfter(client, base);
  await revertTo(client, snapshot);
  await mineBlocks(client, removed.length + 1);
  return removed;
}

/** The amount an off-price outcome is off by, in base units: `amount` as given, or `percent` of the price (1 by default). */
function offBy(body: SandboxSessionSimulateBody, price: bigint, decimals: number): bigint {
  if ('amount' in body && body.amount !== undefined) {
    try {
      return parseUnits(body.amount, decimals);
    } catch {
      throw new ApiError('record_invalid', `amount has more than the token's ${decimals} decimals`, {
        errors: [{ path: 'amount', message: `must have at most ${decimals} decimal places` }],
      });
    }
  }
  const percent = 'percent' in body ? body.percent : 1;
  const off = (price * BigInt(percent)) / 100n;
  return off > 0n ? off : 1n;
}

/** A 409 unless the session awaits its payment (the outcome needs one it can still take). */
function awaitingPayment(session: CheckoutSessionRow, outcome: string): void {
  if (session.status === 'awaiting_payment') return;
  throw new ApiError(
    'conflict',
    `This checkout is ${session.status.replace(/_/g, ' ')}: "${outcome}" needs a checkout awaiting its payment`,
  );
}
