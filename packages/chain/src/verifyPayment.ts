/**
 * Reads a payment transaction back from the chain and says what the merchant received: the ERC-20
 * Transfers into the receiving address, who paid, whether a DEX swap delivered it, and how far the
 * amount is from the expected one.
 */
import { percentDifference } from '@checkout/core';
import {
  type Address,
  getAddress,
  type Hash,
  isHash,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem';
import { getBlockNumber, getTransaction, getTransactionReceipt } from 'viem/actions';
import { type AnyClient, erc20Transfers, sameHex, unlessError } from './chainReads.ts';
import { getConfirmations } from './confirmations.ts';

/** A token the merchant accepts on the chain, as the token registry describes it. */
export interface AcceptedToken {
  address: Address;
  decimals: number;
  symbol: string;
}

/** One ERC-20 Transfer into the receiving address. `token` is the accepted token's address as registered. */
export interface IncomingTransfer {
  logIndex: number;
  token: Address;
  from: Address;
  to: Address;
  amount: bigint;
}

/** Where a mined transaction sits, shared by every mined outcome. */
export interface MinedPaymentFacts {
  /** The payer: the transaction's sender (checksummed), also for swaps where the pair sends the tokens. */
  from: Address;
  /** The contract called: the token for a direct transfer, the router for a swap. */
  to: Address | null;
  /** The transaction's input, lowercase hex without `0x` (empty when the node no longer returns it). */
  input: string;
  blockNumber: bigint;
  blockHash: Hash;
  confirmations: number;
}

/** What the chain says about a payment transaction. */
export type PaymentVerification =
  | { status: 'not_found' }
  | { status: 'pending'; confirmations: number }
  | {
      status: 'reorged';
      /** The block hash seen before, no longer holding the transaction. */
      knownBlockHash: Hash;
      /** Where the transaction sits now, when the new chain mined it again. */
      blockHash?: Hash;
      blockNumber?: bigint;
    }
  | ({ status: 'reverted' } & MinedPaymentFacts)
  | ({ status: 'no_transfer' } & MinedPaymentFacts)
  | ({
      status: 'confirmed';
      /** Every Transfer of an accepted token into the receiving address, in log order. */
      transfers: IncomingTransfer[];
      /** The expected token when it arrived, else the first accepted token that did. */
      receivedToken: Address;
      /** Sum of the transfers of `receivedToken`, in its base units. */
      receivedAmount: bigint;
      /** Log index of the first transfer of `receivedToken`: with chain and tx hash, the payment's unique key. */
      logIndex: number;
      /** True when a DEX swap delivered the tokens rather than the payer's own transfer. */
      swapped: boolean;
      /**
       * Who paid: the sender of the first transfer of `receivedToken` (the `Transfer` log's `from`: a smart
       * account, or the shopper whose tokens a relayer moved), or, when a pool sent it, whoever paid the pool
       * another token (the swapper).
       */
      payer: Address;
      /** (received − expected) / expected × 100, e.g. `0.0`, `-2.0`; across tokens, at 1:1 in whole tokens. */
      amountDifference: string;
    } & MinedPaymentFacts);

/** What verifyPayment needs: the transaction, where the money should land, and what was expected. */
export interface VerifyPaymentParameters {
  client: AnyClient;
  txHash: Hash;
  receivingAddress: Address;
  /** The tokens accepted on this chain; transfers of other tokens are ignored. */
  tokens: readonly AcceptedToken[];
  expectedToken: Address;
  /** In the expected token's base units. */
  expectedAmount: bigint;
  /** Confirmations required before a mined outcome is final, the block itself counting as one. */
  confirmations: number;
  /** The block hash an earlier verification saw; a different one now means the chain reorganised. */
  knownBlockHash?: Hash;
}

/** Verifies one payment transaction once, without waiting: callers poll until the status is final. */
export async function verifyPayment(params: VerifyPaymentParameters): Promise<PaymentVerification> {
  const { client, txHash, knownBlockHash } = params;
  if (!isHash(txHash)) throw new TypeError(`not a transaction hash: ${txHash}`);
  if (!Number.isSafeInteger(params.confirmations) || params.confirmations < 0) {
    throw new RangeError('confirmations must be a non-negative integer');
  }
  if (params.expectedAmount <= 0n) throw new RangeError('expectedAmount must be positive');
  const expectedToken = findToken(params.tokens, params.expectedToken);
  if (expectedToken === undefined) {
    throw new RangeError(`expected token ${params.expectedToken} is not among the accepted tokens`);
  }

  const [transaction, receipt, latest] = await Promise.all([
    getTransaction(client, { hash: txHash }).catch(unlessError(TransactionNotFoundError)),
    getTransactionReceipt(client, { hash: txHash }).catch(unlessError(TransactionReceiptNotFoundError)),
    getBlockNumber(client, { cacheTime: 0 }),
  ]);

  if (receipt === undefined) {
    // A transaction seen mined before that is now unmined or gone was dropped by a reorganisation.
    if (knownBlockHash !== undefined) return { status: 'reorged', knownBlockHash };
    return transaction === undefined ? { status: 'not_found' } : { status: 'pending', confirmations: 0 };
  }
  if (knownBlockHash !== undefined && !sameHex(knownBlockHash, receipt.blockHash)) {
    return {
      status: 'reorged',
      knownBlockHash,
      blockHash: receipt.blockHash,
      blockNumber: receipt.blockNumber,
    };
  }

  const confirmations = await getConfirmations({
    client,
    blockNumber: receipt.blockNumber,
    latestBlockNumber: latest,
  });
  // Reverted and empty outcomes wait too: a reorganisation can replay the transaction with another result.
  if (confirmations < Math.max(1, params.confirmations)) return { status: 'pending', confirmations };

  const facts: MinedPaymentFacts = {
    from: getAddress(receipt.from),
    to: receipt.to === null ? null : getAddress(receipt.to),
    input: transaction ? transaction.input.slice(2).toLowerCase() : '',
    blockNumber: receipt.blockNumber,
    blockHash: receipt.blockHash,
    confirmations,
  };
  if (receipt.status !== 'success') return { status: 'reverted', ...facts };

  const allTransfers = erc20Transfers(receipt);
  const transfers: IncomingTransfer[] = [];
  for (const transfer of allTransfers) {
    const token = findToken(params.tokens, transfer.address);
    if (token === undefined || !sameHex(transfer.args.to, params.receivingAddress)) continue;
    transfers.push({
      logIndex: transfer.logIndex,
      token: token.address,
      from: transfer.args.from,
      to: transfer.args.to,
      amount: transfer.args.value,
    });
  }
  const first = transfers[0];
  if (first === undefined) return { status: 'no_transfer', ...facts };

  const received = transfers.some((t) => sameHex(t.token, expectedToken.address))
    ? expectedToken
    : (findToken(params.tokens, first.token) ?? expectedToken);
  const ofReceived = transfers.filter((t) => sameHex(t.token, received.address));
  const receivedAmount = ofReceived.reduce((sum, t) => sum + t.amount, 0n);

  // A swap shows as the payer's tokens going into a pool and the pool paying the merchant.
  const payerSpentOtherToken = allTransfers.some(
    (t) => sameHex(t.args.from, facts.from) && !sameHex(t.address, received.address),
  );
  const paidByOther = ofReceived.some((t) => !sameHex(t.from, facts.from));
  const sender = ofReceived[0]?.from ?? first.from;
  // A pool pays out what it was paid in another token: the payer is whoever paid it that.
  const payerOfPool = allTransfers.find(
    (t) => sameHex(t.args.to, sender) && !sameHex(t.address, received.address),
  )?.args.from;

  return {
    status: 'confirmed',
    ...facts,
    transfers,
    receivedToken: received.address,
    receivedAmount,
    logIndex: ofReceived[0]?.logIndex ?? first.logIndex,
    swapped: payerSpentOtherToken || paidByOther,
    payer: getAddress(payerOfPool ?? sender),
    // Cross-multiplied by the other token's scale so differing decimals compare exactly, with no rounding.
    amountDifference: percentDifference(
      params.expectedAmount * 10n ** BigInt(received.decimals),
      receivedAmount * 10n ** BigInt(expectedToken.decimals),
    ),
  };
}

function findToken(tokens: readonly AcceptedToken[], address: string): AcceptedToken | undefined {
  return tokens.find((token) => sameHex(token.address, address));
}
