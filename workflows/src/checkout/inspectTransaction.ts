/**
 * One read of a transaction against a session: `facts` when it is final (or not found), otherwise only its
 * confirmations so far; `blockHash` is the including block, remembered to notice a reorganisation. A hash
 * pays a session only when its transaction carries the session's reference or its exact reserved amount,
 * from the session's opening on (`refuseHash`); a transfer the merchant attached is theirs.
 */
import { type AcceptedToken, type ChainClient, verifyPayment } from '@checkout/chain';
import { percentDifference } from '@checkout/core';
import { getAddress, type Hash } from 'viem';
import type { Session } from './activityDeps.ts';
import { hashTermsOf, paymentAddressOf, refuseHash } from './matching.ts';
import type { TransactionFacts } from './shared.ts';

/** What one read found. */
export interface Inspection {
  facts: TransactionFacts | null;
  confirmations: number;
  blockHash: Hash | undefined;
}

/** Reads the transaction once against the session. */
export async function inspectTransaction(input: {
  session: Session;
  chain: ChainClient;
  tokens: readonly AcceptedToken[];
  txHash: string;
  knownBlockHash?: Hash;
  attached?: boolean;
}): Promise<Inspection> {
  const { session, chain, txHash, knownBlockHash } = input;
  const result = await verifyPayment({
    client: chain.client,
    txHash: txHash as Hash,
    // A session with a deposit address is paid there (its forwarder moves the funds on).
    receivingAddress: getAddress(paymentAddressOf(session)),
    tokens: input.tokens,
    expectedToken: getAddress(session.expected_token.address),
    expectedAmount: BigInt(session.expected_token_amount),
    confirmations: chain.confirmations,
    ...(knownBlockHash ? { knownBlockHash } : {}),
  });
  let blockHash = result.status === 'reorged' ? undefined : knownBlockHash;
  if ('blockHash' in result && result.blockHash) blockHash = result.blockHash;
  const confirmations = 'confirmations' in result ? result.confirmations : 0;
  if (result.status === 'not_found') return { facts: { status: 'not_found' }, confirmations, blockHash };
  if (result.status === 'no_transfer') {
    return { facts: { status: 'no_transfer', from: result.from }, confirmations, blockHash };
  }
  if (result.status !== 'confirmed' && result.status !== 'reverted')
    return { facts: null, confirmations, blockHash };
  const block = await chain.client.getBlock({ blockNumber: result.blockNumber });
  const blockTimestamp = Number(block.timestamp) * 1000;
  // Anyone can submit any hash: it pays the session only when its transaction says so.
  const refusal = input.attached
    ? null
    : refuseHash(hashTermsOf(session), {
        input: result.input,
        blockNumber: result.blockNumber,
        blockTimestamp,
        paid:
          result.status === 'confirmed'
            ? { token: result.receivedToken, amount: result.receivedAmount }
            : null,
      });
  if (refusal)
    return { facts: { status: 'refused', from: result.from, reason: refusal }, confirmations, blockHash };
  const mined = {
    from: result.from,
    blockNumber: result.blockNumber.toString(),
    blockHash: result.blockHash,
    blockTimestamp,
  };
  const facts: TransactionFacts =
    result.status === 'reverted'
      ? {
          status: 'reverted',
          ...mined,
          receivedToken: null,
          receivedAmount: '0',
          logIndex: -1,
          swapped: false,
          amountDifference: percentDifference(BigInt(session.expected_token_amount), 0n),
        }
      : {
          status: 'confirmed',
          ...mined,
          from: result.payer,
          receivedToken: result.receivedToken,
          receivedAmount: result.receivedAmount.toString(),
          logIndex: result.logIndex,
          swapped: result.swapped,
          amountDifference: result.amountDifference,
        };
  return { facts, confirmations, blockHash };
}
