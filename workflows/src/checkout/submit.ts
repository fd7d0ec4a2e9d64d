/**
 * A shopper's transaction hash, submitted for a session: a hint. Read on the chain at once, it is refused when
 * its transaction does not name the session, and otherwise claimed durably (one hash pays one checkout) and
 * handed to the session's workflow through its Update, which checks it again. A hash the chain says it does
 * not know yet is neither claimed nor handed over (202): the session's look takes the transaction once the
 * chain shows it. One submitted while the chain does not answer is recorded and checked once it does. A hash Temporal or its workers were not there to take stays claimed and shows as confirming; the
 * hand-over's sweep hands it over later.
 */
import type { ChainClients } from '@checkout/chain';
import { ApiError, temporalUnavailable } from '@checkout/core';
import {
  type CheckoutSessionRow,
  claimTransaction,
  type Database,
  findSession,
  listPendingHandovers,
  markSessionHashPending,
  markTransactionHandedOver,
  type PendingHandover,
  releaseTransaction,
  updateSession,
} from '@checkout/db';
import {
  ApplicationFailure,
  type Client,
  WorkflowExecutionAlreadyStartedError,
  WorkflowUpdateFailedError,
} from '@temporalio/client';
import type { Kysely } from 'kysely';
import {
  decodeFunctionData,
  erc20Abi,
  type Hash,
  type Hex,
  type PublicClient,
  parseEventLogs,
  TransactionNotFoundError,
} from 'viem';
import { handHashToCheckout } from './handHash.ts';
import {
  carriesReference,
  type HashedTransaction,
  type HashRefusal,
  type HashTerms,
  hashTermsOf,
  paymentAddressOf,
  refuseHash,
  type TransferSeen,
} from './matching.ts';
import { checkoutRejections } from './shared.ts';

/** `taken`: the workflow has the hash; `pending`: it is recorded and waits for a worker. */
export type SubmittedTransaction = 'taken' | 'pending';

/** Submits the hash for the session, or refuses it with the documented error. */
export async function submitCheckoutTransaction(
  deps: { db: Kysely<Database>; temporal: Client | undefined; taskQueue: string; chains: ChainClients },
  session: CheckoutSessionRow,
  txHash: string,
): Promise<SubmittedTransaction> {
  const temporal = deps.temporal;
  if (!temporal) throw temporalUnavailable('transactions cannot be checked');
  const hash = txHash.toLowerCase();
  // A session that can take no more says so at once, and claims nothing: the second tab of a paid link.
  if (session.tx_hash !== hash) refuseEndedSession(session);
  // A hash the chain already shows is not this session's to take is refused before it is claimed, so it
  // never stands in the way of the checkout it does pay. The workflow checks again once it is mined.
  const known = await refuseKnownHash(deps.chains, session, hash);
  if (known === 'unknown') {
    // Only a hint: a hash the chain says it does not know (yet) is neither claimed nor handed to the
    // checkout, so no one freezes a session with a made-up hash. Its look takes the transaction once the chain shows it
    // (by the session's reference or exact amount), and the shopper may submit it again meanwhile.
    return 'pending';
  }
  if (known) throw hashRefusalError(known);
  // The claim is durable before Temporal hears of the hash: no other checkout can take the transfer,
  // and a hash Temporal or its workers were not there to take is handed over by the hand-over's sweep.
  const claim = await claimTransaction(deps.db, {
    chainId: session.chain_id,
    txHash: hash,
    sessionId: session.id,
    handedOver: false,
  });
  if (claim === 'session_closed') throw closedError();
  if (claim === 'other_session') {
    throw new ApiError('tx_already_used', 'This transaction already pays another checkout', {
      errors: [{ path: 'tx_hash', message: 'already pays another checkout' }],
    });
  }
  if (claim === 'unmatched') {
    throw new ApiError(
      'tx_already_used',
      'This transaction was recorded as a transfer no checkout took; the merchant has been told',
      { errors: [{ path: 'tx_hash', message: 'was recorded as an unmatched transfer' }] },
    );
  }
  const target = { chainId: session.chain_id, txHash: hash, sessionId: session.id };
  const handover = await handHashToCheckout(
    { db: deps.db, client: temporal, taskQueue: deps.taskQueue },
    session.expected_payment_id,
    hash,
  );
  if (handover.outcome === 'refused') {
    // The checkout may have ended because this very transaction paid it (its closed-tab look took it).
    const now = await findSession(deps.db, session.id);
    if (now?.tx_hash === hash && (now.status === 'resolved' || now.status === 'failed')) return 'taken';
    if (claim === 'claimed') await releaseTransaction(deps.db, target);
    if (now && now.status !== session.status) refuseEndedSession(now);
    throw rejectionError(handover.error);
  }
  if (handover.outcome === 'taken') {
    await markTransactionHandedOver(deps.db, target);
    return 'taken';
  }
  // Recorded, not yet taken: the session shows the hash confirming while it waits for its workflow.
  await markSessionHashPending(deps.db, session.id, hash);
  if (handover.outcome === 'temporal_unavailable') {
    throw temporalUnavailable('the transaction is recorded and will be checked as soon as it is back');
  }
  return 'pending';
}

/** Maps a refused Update to the API's error. */
function rejectionError(error: unknown): ApiError {
  const cause = error instanceof WorkflowUpdateFailedError ? error.cause : undefined;
  const type = cause instanceof ApplicationFailure ? cause.type : undefined;
  const known: Record<string, ApiError> = {
    [checkoutRejections.expired]: new ApiError('checkout_expired', 'This checkout has expired'),
    [checkoutRejections.paid]: new ApiError('checkout_already_paid', 'This checkout is already paid'),
    [checkoutRejections.closed]: closedError(),
    [checkoutRejections.otherHash]: new ApiError(
      'tx_already_submitted',
      'Another transaction was already submitted to this checkout',
      { errors: [{ path: 'tx_hash', message: 'differs from the one already submitted' }] },
    ),
    [checkoutRejections.rejectedHash]: new ApiError(
      'tx_rejected',
      'This transaction was checked and does not pay this checkout',
      { errors: [{ path: 'tx_hash', message: 'does not pay this checkout' }] },
    ),
    [checkoutRejections.malformed]: new ApiError('record_invalid', 'tx_hash is malformed', {
      errors: [{ path: 'tx_hash', message: 'must be a 0x-prefixed 32-byte transaction hash' }],
    }),
  };
  if (type && Object.hasOwn(known, type)) return known[type]!;
  if (
    error instanceof WorkflowExecutionAlreadyStartedError ||
    (error instanceof Error && /not found/i.test(error.message))
  ) {
    return new ApiError('checkout_closed', 'This checkout is no longer open');
  }
  return new ApiError(
    'service_unavailable',
    'The workflow service (Temporal) did not take the transaction; retry',
    {
      cause: error,
    },
  );
}

/** How long the submission waits for the chain's view of the transaction before leaving it to the workflow. */
const lookupTimeoutMs = 2_000;

/**
 * Why the session may not take the transaction, as far as the chain shows it now (its input, what it pays,
 * and its block when mined); null when it may, or when the chain does not answer in time (the workflow checks
 * it then); `unknown` when the chain answers that it does not know it (yet).
 */
async function refuseKnownHash(
  chains: ChainClients,
  session: CheckoutSessionRow,
  hash: string,
): Promise<HashRefusal | 'unknown' | null> {
  const terms = hashTermsOf(session);
  const client = chains.get(session.chain_id)?.client;
  if (!client) return null;
  const look = async (): Promise<HashedTransaction> => {
    const tx = await client.getTransaction({ hash: hash as Hash });
    if (tx.blockNumber === null) {
      return { input: tx.input, blockNumber: null, ...directTransfer(tx, session) };
    }
    // What it paid matters only to a transaction that does not carry the reference: only then is its
    // receipt read (the workflow reads it anyway to record the payment).
    const [block, paid] = await Promise.all([
      client.getBlock({ blockNumber: tx.blockNumber }),
      carriesReference(tx.input, terms.reference) ? undefined : paidBy(client, hash, session, terms),
    ]);
    return {
      input: tx.input,
      blockNumber: tx.blockNumber,
      blockTimestamp: Number(block.timestamp) * 1000,
      ...(paid === undefined ? {} : { paid }),
    };
  };
  let timer: NodeJS.Timeout | undefined;
  const tx = await Promise.race([
    // The chain answers that it does not know the hash: a hint only. It does not answer: the hash is
    // recorded and checked by the workflow once the chain is back.
    look().catch((error: unknown) =>
      error instanceof TransactionNotFoundError ? ('unknown' as const) : undefined,
    ),
    new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), lookupTimeoutMs);
    }),
  ]).finally(() => clearTimeout(timer));
  if (tx === 'unknown') return 'unknown';
  return tx ? refuseHash(terms, tx) : null;
}

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** What a mined transaction paid the session, from its receipt's `Transfer` logs (null: nothing it takes). */
async function paidBy(
  client: PublicClient,
  hash: string,
  session: CheckoutSessionRow,
  terms: HashTerms,
): Promise<TransferSeen | null> {
  const receipt = await client.getTransactionReceipt({ hash: hash as Hash });
  const paid = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs }).find(
    (l) =>
      sameAddress(l.args.to, paymentAddressOf(session)) &&
      sameAddress(l.address, terms.tokenAddress) &&
      // Into a deposit address any amount is the session's; into a receiving address only its own.
      (session.deposit_address !== null || l.args.value === terms.amount),
  );
  return paid ? { token: paid.address, amount: paid.args.value } : null;
}

/** What a pending transaction pays the session's address when it is a plain `transfer` call of a token. */
function directTransfer(
  tx: { to: string | null; input: Hex },
  session: CheckoutSessionRow,
): Pick<HashedTransaction, 'paid'> {
  if (!tx.to) return {};
  try {
    const call = decodeFunctionData({ abi: erc20Abi, data: tx.input });
    if (call.functionName !== 'transfer' || !sameAddress(call.args[0], paymentAddressOf(session))) return {};
    return { paid: { token: tx.to, amount: call.args[1] } };
  } catch {
    return {};
  }
}

/** The API's error for a hash the session may not take. */
function hashRefusalError(refusal: HashRefusal): ApiError {
  if (refusal === 'before_opening') {
    return new ApiError('tx_before_checkout', 'This transaction was mined before this checkout opened', {
      errors: [{ path: 'tx_hash', message: 'was mined before this checkout opened' }],
    });
  }
  return new ApiError(
    'tx_not_for_session',
    "This transaction does not carry this checkout's reference, nor pay its exact amount",
    { errors: [{ path: 'tx_hash', message: "does not carry this checkout's reference" }] },
  );
}

/** What the sweep of recorded hashes needs. */
export interface PendingHashDeps {
  db: Kysely<Database>;
  temporal?: { client: Client } | undefined;
  taskQueue: string;
  log: { warn(fields: object, message: string): void };
}

/** How long the sweep waits for a checkout to take a recorded hash. */
const sweepWaitMs = 5_000;

/**
 * Hands a hash recorded for a session (its workflow did not take it then) to the session's workflow; a
 * refusal releases the claim and says why on the session. False when Temporal or its workers are still away.
 */
export async function handPendingHash(deps: PendingHashDeps, pending: PendingHandover): Promise<boolean> {
  const temporal = deps.temporal;
  if (!temporal) return false;
  const { db } = deps;
  const handover = await handHashToCheckout(
    { db, client: temporal.client, taskQueue: deps.taskQueue },
    pending.expectedPaymentId,
    pending.txHash,
    { waitMs: sweepWaitMs },
  );
  if (handover.outcome === 'taken') {
    await markTransactionHandedOver(db, pending);
    return true;
  }
  if (handover.outcome === 'refused') {
    await releaseTransaction(db, pending);
    const session = await findSession(db, pending.sessionId);
    if (session?.status === 'confirming' && session.tx_hash === pending.txHash) {
      await updateSession(db, pending.sessionId, {
        status:
          session.expires_at && session.expires_at.getTime() <= Date.now() ? 'expired' : 'awaiting_payment',
        tx_hash: null,
        error: `The transaction was not taken: ${handover.error.message}`,
      });
    }
    return true;
  }
  deps.log.warn(
    { ...pending, outcome: handover.outcome },
    'a recorded hash could not be handed to its checkout yet',
  );
  return false;
}

/** Hands over the hashes recorded before `before`, oldest first; stops at the first Temporal did not take. */
export async function sweepPendingHashes(
  deps: PendingHashDeps,
  before: Date,
  limit: number,
): Promise<{ taken: number; failed: boolean }> {
  let taken = 0;
  for (const pending of await listPendingHandovers(deps.db, before, limit)) {
    if (!(await handPendingHash(deps, pending))) return { taken, failed: true };
    taken += 1;
  }
  return { taken, failed: false };
}

/** The 409 of an attempt given up (closed). */
function closedError(): ApiError {
  return new ApiError('checkout_closed', 'This checkout was closed: it takes no payment');
}

/**
 * Refuses a hash for a session that takes no more: already paid (or failed) or closed, with the 409 the
 * element reads to show the session's true state. An expired session is left to its workflow, which knows
 * whether it still takes the hash.
 */
function refuseEndedSession(session: CheckoutSessionRow): void {
  if (session.status === 'resolved' || session.status === 'failed') {
    throw new ApiError('checkout_already_paid', 'This checkout is already paid', {
      errors: [{ path: 'tx_hash', message: 'the checkout is already paid' }],
    });
  }
  if (session.status === 'closed') throw closedError();
}
